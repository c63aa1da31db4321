import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** Files may hold secret header values (when the user allowed plain text): owner-only. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Writes a file so that a crash at any moment leaves either the old content or the new,
 * never a mix: write a temporary file in the same directory, fsync it, rename it over the
 * target (atomic on one file system), then fsync the directory so the rename itself is
 * durable.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fsp.open(tmp, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fsp.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fsp.rename(tmp, file);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
  await syncDirectory(dir);
}

async function syncDirectory(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}

/** True for the temporary files writeFileAtomic() leaves behind when the process dies mid-write. */
export function isAtomicTempFile(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/** A timestamp usable in a file name on every platform (no colons): 2025-01-02T03-04-05-678Z. */
export function fileTimestamp(at: Date): string {
  return at.toISOString().replace(/[:.]/g, '-');
}

/**
 * Moves a broken file out of the way, keeping it next to where it was:
 * presets.json -> presets.broken-2025-01-02T03-04-05-678Z.json. Returns the new path.
 */
export function moveAside(file: string, at: Date): string {
  const dir = path.dirname(file);
  const ext = path.extname(file);
  const stem = path.basename(file, ext);
  let target = path.join(dir, `${stem}.broken-${fileTimestamp(at)}${ext}`);
  for (let i = 2; fs.existsSync(target); i++) {
    target = path.join(dir, `${stem}.broken-${fileTimestamp(at)}-${i}${ext}`);
  }
  fs.renameSync(file, target);
  return target;
}

/** Parses JSON; on failure says why without quoting the file (it may hold secrets). */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
  } catch {
    return {
      ok: false,
      message:
        text.trim() === ''
          ? 'the file is empty'
          : 'the file is not valid JSON (truncated, or edited by hand?)',
    };
  }
}
