/**
 * A JSON file read a chunk at a time through the streaming parser (stream.ts): the value, never
 * the file's text or bytes whole.
 */
import { FileProblemError, openBoundedFile, openProblem } from '../../files/bounded-file.ts';
import { MAX_JSON_DEPTH } from '../files.ts';
import { JsonStreamError } from './shapes.ts';
import { steadyYoungGeneration } from './heap.ts';
import { JsonStream } from './stream.ts';

/** How much of a file is read at a time: the one slice of it held beside the tree. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The JSON value of a regular file of at most maxBytes (`noun` names it in messages), read a
 * chunk at a time: never its text whole, nor its bytes. Throws a FileProblemError for the file
 * (missing, a folder, too large: checked before a byte is read) or a JsonStreamError for its
 * contents. A UTF-8 byte-order mark is skipped. A value nested deeper than MAX_JSON_DEPTH is
 * refused: `explain`, given the value cut at that depth, may say which field is wrong
 * (parseJsonText's rule).
 */
export async function readJsonStreamed(
  file: string,
  maxBytes: number,
  noun: string,
  explain?: (shallow: unknown) => string | null,
): Promise<unknown> {
  const { handle, size } = await openBoundedFile(file, maxBytes, noun);
  const parser = new JsonStream();
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(size, 1)));
  steadyYoungGeneration(true);
  try {
    let at = 0;
    while (at < size) {
      let read: number;
      try {
        ({ bytesRead: read } = await handle.read(chunk, 0, Math.min(chunk.length, size - at), at));
      } catch (err) {
        throw new FileProblemError(file, openProblem(err), (err as NodeJS.ErrnoException).code);
      }
      if (read === 0) break;
      const bom =
        at === 0 && read >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
      parser.write(chunk.subarray(bom, read));
      at += read;
    }
    const value = parser.end();
    if (parser.pruned)
      throw new JsonStreamError(explain?.(value) ?? `the file nests deeper than ${MAX_JSON_DEPTH} levels`);
    return value;
  } finally {
    steadyYoungGeneration(false);
    await handle.close();
  }
}
