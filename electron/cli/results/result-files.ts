/**
 * The saved results `trebuchet report` and `trebuchet diff` read: each file read a chunk at a
 * time into its value (a history file may be large: its text is never held whole; a FIFO or
 * /dev/zero is refused unread, a file past the cap before a byte is read), then read as
 * History's import reads one (electron/stores/result-text.ts). A file that cannot be a result
 * is a CliInputError naming the file and its first bad fields.
 */
import { resolve } from 'node:path';
import { LIMITS } from '../../../shared/model/defaults.ts';
import type { SavedResult } from '../../../shared/records/kinds.ts';
import { FileProblemError } from '../../files/bounded-file.ts';
import { readJsonStreamed } from '../../stores/json/file.ts';
import { JsonStreamError } from '../../stores/json/shapes.ts';
import { savedResultFromJson } from '../../stores/result-text.ts';
import { CliInputError } from '../values.ts';

export async function readResultFile(path: string, cwd: string): Promise<SavedResult> {
  let json: unknown;
  try {
    json = await readJsonStreamed(resolve(cwd, path), LIMITS.runFileBytes.max, 'a result file');
  } catch (e) {
    if (e instanceof FileProblemError) throw new CliInputError(path, e.message);
    if (e instanceof JsonStreamError)
      throw new CliInputError(path, `not a result Trebuchet reads: ${e.message}`);
    throw e;
  }
  const saved = savedResultFromJson(json);
  if (!saved.ok) throw new CliInputError(path, saved.message);
  return saved.value;
}
