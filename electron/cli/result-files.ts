/**
 * The saved results `trebuchet report` and `trebuchet diff` read: each file read bounded (a
 * history file may be large, a FIFO or /dev/zero is refused unread), then read as History's
 * import reads one (electron/stores/result-text.ts). A file that cannot be a result is a
 * CliInputError naming the file and its first bad fields.
 */
import { resolve } from 'node:path';
import { LIMITS } from '../../shared/model/defaults.ts';
import type { SavedResult } from '../../shared/records/result-file.ts';
import { FileProblemError, readBoundedFileSync, textOf } from '../stores/bounded-file.ts';
import { savedResultFromText } from '../stores/result-text.ts';
import { CliInputError } from './values.ts';

export function readResultFile(path: string, cwd: string): SavedResult {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = textOf(readBoundedFileSync(file, LIMITS.runFileBytes.max, 'a result file'));
  } catch (e) {
    if (e instanceof FileProblemError) throw new CliInputError(path, e.message);
    throw e;
  }
  const saved = savedResultFromText(text);
  if (!saved.ok) throw new CliInputError(path, saved.message);
  return saved.value;
}
