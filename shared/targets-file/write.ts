import type { ListRequest } from '../model/scenario.ts';
import type { TargetsFormat } from './formats.ts';

/**
 * A saved list written back as the text of a targets file, so the app can show and edit it as
 * text: http_load's url file when every request is a bare GET, vegeta's http format when some
 * carry a method or headers; null when a request has a body (vegeta's formats hold a body as
 * a file path or as base64, neither of which reads back as the same body), so the list stays
 * as it was saved. Reading the text back (parseTargets) gives the same requests.
 */
export function targetsText(
  requests: readonly ListRequest[],
): { format: TargetsFormat; text: string } | null {
  // A value with blanks at its ends, or a name a line would read as a comment, does not read back.
  const kept = (h: { name: string; value: string }) => !h.name.startsWith('#') && h.value === h.value.trim();
  if (requests.some((r) => r.body.kind !== 'none' || !r.headers.every(kept))) return null;
  if (requests.every((r) => r.method === 'GET' && r.headers.length === 0)) {
    return { format: 'urls', text: requests.map((r) => r.url).join('\n') };
  }
  const blocks = requests.map((r) =>
    [`${r.method} ${r.url}`, ...r.headers.map((h) => `${h.name}: ${h.value}`)].join('\n'),
  );
  return { format: 'http', text: blocks.join('\n\n') };
}
