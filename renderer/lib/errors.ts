/** What to show of a rejection: an Error's message (the host's names the field), else the value as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
