/**
 * History's import as the web host receives it (POST IMPORT_PATH): history.import's input,
 * { files: [{ name, text }] }, whose texts are whole result files. The body is read as it
 * arrives and each file's text, itself JSON, is read into its value on the way (its escapes
 * decoded: json/escaped.ts), so neither the body nor a file's text is ever held whole: only
 * the files' trees are.
 */
import { z } from 'zod';
import { LIMITS } from '../../shared/model/defaults.ts';
import { describeIssues, parseWith } from '../../shared/model/validation.ts';
import { importFileNameSchema, MAX_IMPORT_FILES } from '../../shared/records/import.ts';
import type { ReadFile } from '../stores/history-import.ts';
import { EscapedBytes } from '../stores/json/escaped.ts';
import { steadyYoungGeneration } from '../stores/json/heap.ts';
import { JsonStreamError } from '../stores/json/shapes.ts';
import { JsonStream, type StringSink } from '../stores/json/stream.ts';

/** A file's text read into its JSON value as it came: what the body holds in the text's place. */
class ReadText {
  readonly json: ReadFile['json'];
  constructor(json: ReadFile['json']) {
    this.json = json;
  }
}

const bodySchema = z.strictObject({
  files: z
    .array(
      z.strictObject({
        name: importFileNameSchema,
        text: z.instanceof(ReadText, { error: 'must be a text' }),
      }),
    )
    .min(1, 'give at least one result file')
    .max(MAX_IMPORT_FILES, `at most ${MAX_IMPORT_FILES} files at once`),
});

/** The files' texts passed their cap (LIMITS.importBytes together): the import stops reading. */
export class ImportTooLargeError extends Error {
  override readonly name = 'ImportTooLargeError';
}

/** A file's text: decoded as it comes and read by a parser of its own; its failure is its own, not the body's. */
class FileText implements StringSink {
  readonly #parser = new JsonStream();
  readonly #escapes: EscapedBytes;
  #failure: string | null = null;
  #started = false;

  constructor(count: (bytes: number) => void) {
    this.#escapes = new EscapedBytes((bytes) => {
      count(bytes.length);
      if (this.#failure !== null) return;
      // A UTF-8 byte-order mark, which Windows editors write, is no part of the JSON.
      const bom = !this.#started && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
      this.#started = true;
      try {
        this.#parser.write(bytes.subarray(bom));
      } catch (e) {
        this.#fail(e);
      }
    });
  }

  write(raw: Buffer): void {
    this.#escapes.write(raw);
  }

  end(): ReadText {
    this.#escapes.end();
    if (this.#failure === null) {
      try {
        const value = this.#parser.end();
        if (this.#parser.pruned) throw new JsonStreamError('the file nests too deep');
        return new ReadText({ ok: true, value });
      } catch (e) {
        this.#fail(e);
      }
    }
    return new ReadText({ ok: false, message: this.#failure! });
  }

  #fail(e: unknown): void {
    if (!(e instanceof JsonStreamError)) throw e;
    this.#failure = e.message;
  }
}

/**
 * The files of an import body, each read into its JSON value (or why it is not JSON); a body
 * that is not history.import's input is refused naming its field. Throws an
 * ImportTooLargeError once the texts pass LIMITS.importBytes, having read no further.
 */
export async function readImportBody(
  body: AsyncIterable<Buffer>,
): Promise<{ ok: true; files: ReadFile[] } | { ok: false; message: string }> {
  let textBytes = 0;
  const count = (bytes: number): void => {
    textBytes += bytes;
    if (textBytes > LIMITS.importBytes.max) throw new ImportTooLargeError();
  };
  const parser = new JsonStream({
    strings: (path) =>
      path.length === 3 && path[0] === 'files' && typeof path[1] === 'number' && path[2] === 'text'
        ? new FileText(count)
        : null,
  });
  let value: unknown;
  steadyYoungGeneration(true);
  try {
    for await (const chunk of body) parser.write(chunk);
    value = parser.end();
  } catch (e) {
    if (e instanceof JsonStreamError) return { ok: false, message: `The body is not JSON: ${e.message}.` };
    throw e;
  } finally {
    steadyYoungGeneration(false);
  }
  const parsed = parseWith(bodySchema, value);
  if (!parsed.ok)
    return { ok: false, message: `history.import input is invalid: ${describeIssues(parsed.issues)}` };
  return { ok: true, files: parsed.value.files.map((f) => ({ name: f.name, json: f.text.json })) };
}
