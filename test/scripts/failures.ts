/**
 * The failed tests of one vitest run, as failures-reporter.ts writes them and suite.ts reads
 * them back: one schema for both ends of the file.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** A message's first line is cut here: the summary names the failure, the log above holds it whole. */
const MESSAGE_CHARS = 300;

const Failure = z.strictObject({
  file: z.string(),
  test: z.string(),
  message: z.string().max(MESSAGE_CHARS),
});
const FailureList = z.array(Failure);
export type FailureList = z.infer<typeof FailureList>;

export const failureLine = (file: string, test: string, message: string): FailureList[number] => ({
  file,
  test,
  message: message.length > MESSAGE_CHARS ? `${message.slice(0, MESSAGE_CHARS - 1)}…` : message,
});

/** The failures a run wrote; a run that died before writing any says so. */
export function readFailures(file: string): FailureList | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 'vitest wrote no list of failures (it ended before its run did: see its output above)';
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return `the list of failures is not JSON: ${(e as Error).message}`;
  }
  const parsed = FailureList.safeParse(json);
  return parsed.success ? parsed.data : `the list of failures is malformed: ${parsed.error.message}`;
}
