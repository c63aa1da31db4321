/**
 * The saved results `trebuchet report` and `trebuchet diff` read: each file read bounded (a
 * history file may be large, a FIFO or /dev/zero is refused unread), parsed as JSON and told
 * apart by shared/records/result-file.ts. A file that cannot be a result is a CliInputError
 * naming the file and its first bad fields.
 */
import { resolve } from 'node:path';
import { LIMITS } from '../../shared/model/defaults.ts';
import { describeIssues } from '../../shared/model/validation.ts';
import { readSavedResult, type SavedResult } from '../../shared/records/result-file.ts';
import { FileProblemError, readBoundedFileSync, textOf } from '../stores/bounded-file.ts';
import { parseJsonText } from '../stores/files.ts';
import { CliInputError } from './values.ts';

/** Issues past this many are counted, not listed: a file of another kind fails at every field. */
const SHOWN_ISSUES = 5;

export function readResultFile(path: string, cwd: string): SavedResult {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = textOf(readBoundedFileSync(file, LIMITS.runFileBytes.max, 'a result file'));
  } catch (e) {
    if (e instanceof FileProblemError) throw new CliInputError(path, e.message);
    throw e;
  }
  const json = parseJsonText(text, null);
  if (!json.ok) throw new CliInputError(path, json.message);
  const saved = readSavedResult(json.value);
  if (!saved.ok) {
    const more = saved.issues.length - SHOWN_ISSUES;
    const listed = describeIssues(saved.issues.slice(0, SHOWN_ISSUES));
    throw new CliInputError(
      path,
      `not a result Trebuchet reads: ${listed}${more > 0 ? `; and ${more} more` : ''}`,
    );
  }
  return saved.value;
}
