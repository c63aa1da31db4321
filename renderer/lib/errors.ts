import { CommandError } from '../../shared/contract/client.ts';
import type { FieldIssue } from '../../shared/model/validation.ts';

/** What to show of a rejection: an Error's message (the host's names the field), else the value as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The fields a host named when it refused a command's input (a body file that does not
 * exist), under `key` of that input ("scenario"), as paths of the form ("targets.0.body.path").
 */
export function refusedFields(error: unknown, key: string): FieldIssue[] {
  if (!(error instanceof CommandError)) return [];
  const prefix = `${key}.`;
  return error.issues.flatMap((i) =>
    i.path.startsWith(prefix) ? [{ path: i.path.slice(prefix.length), message: i.message }] : [],
  );
}
