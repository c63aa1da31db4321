/**
 * Reading a file a person named or put in a folder (a scenario, a preset, a plan, a run
 * record, a body, a CA file) without letting it cost more than its cap: the file is opened
 * with O_NONBLOCK (a named pipe cannot block the opening thread), the opened descriptor is
 * checked (a regular file, at most `maxBytes`: so a FIFO, /dev/zero or a file growing
 * meanwhile cannot get past it), and then exactly the checked size is read.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** O_NONBLOCK is POSIX; Windows has no named pipes in the file system to block on. */
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** A file that cannot be read as asked: `problem` is said after its path ("/x is a folder, not a file"). */
export class FileProblemError extends Error {
  readonly file: string;
  readonly problem: string;
  /** The errno code when opening or reading failed (ENOENT: gone). */
  readonly code: string | undefined;
  constructor(file: string, problem: string, code?: string) {
    super(`${file} ${problem}`);
    this.name = 'FileProblemError';
    this.file = file;
    this.problem = problem;
    this.code = code;
  }
}

const failed = (file: string, err: unknown): FileProblemError =>
  new FileProblemError(file, openProblem(err), (err as NodeJS.ErrnoException).code);

/** What a path that is not a regular file is, in words. */
export function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

/** Why a file of this stat cannot be read as a file of at most maxBytes (`noun` names it); null when it can. */
export function statProblem(stat: Stats, maxBytes: number, noun: string): string | null {
  if (stat.isDirectory()) return 'is a folder, not a file';
  if (!stat.isFile()) return `is ${kindOf(stat)}, not a regular file`;
  if (stat.size > maxBytes) return `is ${stat.size} bytes; ${noun} is at most ${maxBytes} bytes`;
  return null;
}

/** Why opening a file failed, in words that never quote it. */
export function openProblem(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'does not exist';
    case 'ENOTDIR':
      return 'does not exist (a part of its path is not a folder)';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read (permission denied)';
    case 'ENXIO':
      return 'is a socket or a device, not a regular file';
    case 'ELOOP':
      return 'is a symbolic link that loops';
    default:
      return `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
}

/** A file's text as UTF-8, a leading byte-order mark (which Windows editors write) dropped. */
export function textOf(bytes: Buffer): string {
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

/** Opens a file and checks the opened descriptor; the caller closes it. Throws a FileProblemError. */
export function openBoundedFileSync(
  file: string,
  maxBytes: number,
  noun: string,
): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    throw failed(file, err);
  }
  const stat = fstatSync(fd);
  const problem = statProblem(stat, maxBytes, noun);
  if (problem) {
    closeSync(fd);
    throw new FileProblemError(file, problem);
  }
  return { fd, size: stat.size };
}

/**
 * The bytes of a regular file of at most maxBytes (`noun` names what it is in the message:
 * "a scenario file"). Throws a FileProblemError saying what is wrong, never reading more
 * than maxBytes.
 */
export function readBoundedFileSync(file: string, maxBytes: number, noun: string): Buffer {
  const { fd, size } = openBoundedFileSync(file, maxBytes, noun);
  try {
    // Exactly the checked size: a file that grows meanwhile is not read past its limit.
    const data = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, data, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return data.subarray(0, read);
  } catch (err) {
    throw failed(file, err);
  } finally {
    closeSync(fd);
  }
}

/** Opens a file and checks the opened handle (so the file read is the file checked). */
export async function openBoundedFile(
  file: string,
  maxBytes: number,
  noun: string,
): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (err) {
    throw failed(file, err);
  }
  const stat = await handle.stat();
  const problem = statProblem(stat, maxBytes, noun);
  if (problem) {
    await handle.close();
    throw new FileProblemError(file, problem);
  }
  return { handle, size: stat.size };
}

/**
 * readBoundedFileSync() off the event loop. `shared` reads into shared memory, so worker
 * threads get the same bytes, not a copy each (a message to a worker clones a plain buffer).
 */
export async function readBoundedFile(
  file: string,
  maxBytes: number,
  noun: string,
  opts: { shared?: boolean } = {},
): Promise<Buffer> {
  const { handle, size } = await openBoundedFile(file, maxBytes, noun);
  try {
    // Exactly the checked size: a file that grows meanwhile is not read past its limit.
    const data = opts.shared === true ? Buffer.from(new SharedArrayBuffer(size)) : Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const { bytesRead } = await handle.read(data, read, size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return data.subarray(0, read);
  } catch (err) {
    throw failed(file, err);
  } finally {
    await handle.close();
  }
}
