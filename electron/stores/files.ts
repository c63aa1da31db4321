import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** Files may hold secret header values (when the user allowed plain text): owner-only. */
export const PRIVATE_FILE_MODE = 0o600;
/** A file that holds no secret: readable by others, as the umask allows. */
export const SHARED_FILE_MODE = 0o666;

/**
 * Stored documents nest a dozen levels at most. JSON.parse takes any depth, but
 * JSON.stringify and every recursive walk overflow the stack on a deep one, so a file
 * nesting deeper than this is refused before anything walks it.
 */
export const MAX_JSON_DEPTH = 64;

// Unique beside the file (the pid and 32 random bits), not secret: Math.random does, and a run
// that writes its report does not load node:crypto for it (~15 ms at start).
const tempPathOf = (file: string): string =>
  path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${Math.floor(Math.random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0')}.tmp`,
  );

/**
 * Writes a file so that a crash at any moment leaves either the old content or the new,
 * never a mix: write a temporary file in the same directory, fsync it, rename it over the
 * target (atomic on one file system), then fsync the directory so the rename itself is
 * durable. A failed write (disk full) leaves the target as it was and no temporary file.
 * `data` may come in pieces (a large record, made as it is written: never one text); past
 * `maxBytes` the write stops and throws a FileTooLargeError, nothing replaced.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array | Iterable<string>,
  mode: number = PRIVATE_FILE_MODE,
  maxBytes = Infinity,
): Promise<void> {
  const tmp = tempPathOf(file);
  const handle = await fsp.open(tmp, 'wx', mode);
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) await handle.writeFile(data);
    else {
      let bytes = 0;
      for (const piece of data) {
        bytes += Buffer.byteLength(piece);
        if (bytes > maxBytes) throw new FileTooLargeError(maxBytes);
        await handle.write(piece);
      }
    }
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
  await syncDirectory(path.dirname(file));
}

/** A file that would pass its cap: not written (the reader would refuse it). */
export class FileTooLargeError extends Error {
  override readonly name = 'FileTooLargeError';
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`the run is more than ${maxBytes} bytes as JSON; a run file is at most ${maxBytes}`);
    this.maxBytes = maxBytes;
  }
}

/** writeFileAtomic() for the synchronous preset store (small files, written one at a time). */
export function writeFileAtomicSync(
  file: string,
  data: string | Uint8Array,
  mode: number = PRIVATE_FILE_MODE,
): void {
  const tmp = tempPathOf(file);
  const fd = fs.openSync(tmp, 'wx', mode);
  try {
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  let dir: number | undefined;
  try {
    dir = fs.openSync(path.dirname(file), 'r');
    fs.fsyncSync(dir);
  } catch {
    // As in syncDirectory().
  } finally {
    if (dir !== undefined) fs.closeSync(dir);
  }
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
function isAtomicTempFile(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/** A temporary file this old is a leftover of a crash even when its writer's pid lives (reused, another machine's). */
const STALE_TEMP_MS = 10 * 60_000;

/** True while the process `pid` exists (EPERM: it does, as another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files a process killed mid-write left in `dir` (a store's folder, at
 * start): each one whose writer (the pid in its name, see tempPathOf) is gone, and any older
 * than ten minutes. One a live process is writing now stays. Returns the names removed.
 */
export function removeStaleTempFiles(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.filter(isAtomicTempFile)) {
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    const pid = /\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name)?.[1];
    const writerGone = pid !== undefined && !processAlive(Number(pid));
    // The wall clock, as the file times are (not a store's clock, which tests set).
    if (writerGone || Date.now() - stat.mtimeMs > STALE_TEMP_MS) {
      fs.rmSync(file, { force: true });
      removed.push(name);
    }
  }
  return removed;
}

/** A timestamp usable in a file name on every platform (no colons): 2025-01-02T03-04-05-678Z. */
export function fileTimestamp(at: Date): string {
  return at.toISOString().replace(/[:.]/g, '-');
}

/**
 * Moves a file (or whatever is in the way: a folder) aside, keeping it next to where it
 * was: presets.json -> presets.broken-2025-01-02T03-04-05-678Z.json. Returns the new path,
 * or null when it was gone already (another process moved it first).
 */
export function moveAside(file: string, at: Date, label = 'broken'): string | null {
  const dir = path.dirname(file);
  const ext = path.extname(file);
  const stem = path.basename(file, ext);
  let target = path.join(dir, `${stem}.${label}-${fileTimestamp(at)}${ext}`);
  for (let i = 2; fs.existsSync(target); i++) {
    target = path.join(dir, `${stem}.${label}-${fileTimestamp(at)}-${i}${ext}`);
  }
  try {
    fs.renameSync(file, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return target;
}

/**
 * Makes sure `dir` is a directory: whatever else is in its place (a file) is moved aside
 * first. Returns where that was kept, or null when nothing was in the way.
 */
export function ensureDirectory(dir: string, now: () => Date): string | null {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return null;
  const keptAs = stat ? moveAside(dir, now()) : null;
  fs.mkdirSync(dir, { recursive: true });
  return keptAs;
}

/** True when the JSON value nests deeper than `max` arrays and objects (walked without recursion). */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [v, depth] = item;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * A copy of a JSON value with every array or object `max` levels down replaced by null, built
 * without recursion: what a schema can read to name the field of a value nested too deep.
 */
export function prunedCopy(value: unknown, max: number): unknown {
  const out: Record<string, unknown> = {};
  const stack: [unknown, Record<string, unknown> | unknown[], string | number, number][] = [
    [value, out, 'value', 0],
  ];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [v, parent, key, depth] = item;
    const at = parent as Record<string | number, unknown>;
    if (typeof v !== 'object' || v === null) {
      at[key] = v;
    } else if (depth >= max) {
      at[key] = null;
    } else if (Array.isArray(v)) {
      const copy: unknown[] = new Array<unknown>(v.length);
      at[key] = copy;
      v.forEach((child, i) => stack.push([child, copy, i, depth + 1]));
    } else {
      const copy: Record<string, unknown> = {};
      at[key] = copy;
      for (const [k, child] of Object.entries(v)) {
        copy[k] = null; // keeps the file's key order
        stack.push([child, copy, k, depth + 1]);
      }
    }
  }
  return out.value;
}

/**
 * Parses JSON; on failure says why without quoting the file (it may hold secrets). A value
 * nesting deeper than maxDepth (MAX_JSON_DEPTH; null = any) is refused: `explain`, given a
 * copy cut off at that depth (prunedCopy), may say which field is wrong (an unknown one, say).
 */
export function parseJsonText(
  text: string,
  maxDepth: number | null = MAX_JSON_DEPTH,
  explain?: (shallow: unknown) => string | null,
): { ok: true; value: unknown } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return {
      ok: false,
      message:
        text.trim() === ''
          ? 'the file is empty'
          : 'the file is not valid JSON (truncated, or edited by hand?)',
    };
  }
  if (maxDepth !== null && deeperThan(value, maxDepth)) {
    const why = explain?.(prunedCopy(value, maxDepth)) ?? null;
    return { ok: false, message: why ?? `the file nests deeper than ${maxDepth} levels` };
  }
  return { ok: true, value };
}
