import { z } from 'zod';
import type { Header, ListRequestInput } from '../model/scenario.ts';
import { unknownFieldMessage } from '../model/validation.ts';
import {
  checkHeaderCount,
  checkRequestCount,
  checkedHeader,
  checkedMethod,
  checkedUrl,
  linesOf,
  TargetsFileError,
} from './problem.ts';

/** One line of vegeta's JSON format (its JSON schema: method and url required, header values in lists, body in base64). */
const jsonTargetSchema = z.strictObject({
  method: z.string({ error: 'method is missing or not a string' }),
  url: z.string({ error: 'url is missing or not a string' }),
  header: z
    .record(z.string(), z.array(z.string(), { error: "a header's values are a list of strings" }))
    .optional(),
  body: z
    .string({ error: 'body is not a string' })
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'body is not base64')
    .optional(),
});

const FIELDS = ['method', 'url', 'header', 'body'];

/** vegeta's JSON lines: one object per line, {method, url, header: {Name: [values]}, body: base64}. */
export function parseJsonFormat(text: string): ListRequestInput[] {
  const out: ListRequestInput[] = [];
  linesOf(text).forEach((raw, i) => {
    const line = i + 1;
    const t = raw.trim();
    if (t === '') return;
    let value: unknown;
    try {
      value = JSON.parse(t);
    } catch (err) {
      throw new TargetsFileError({ line, field: 'json', message: (err as Error).message });
    }
    const r = jsonTargetSchema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      const unknown = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
      throw new TargetsFileError({
        line,
        field: unknown ?? (issue.path[0] === undefined ? 'json' : String(issue.path[0])),
        message: unknown === undefined ? issue.message : unknownFieldMessage(unknown, FIELDS),
      });
    }
    checkRequestCount(out.length + 1, line);
    const headers: Header[] = [];
    for (const [name, values] of Object.entries(r.data.header ?? {})) {
      for (const v of values) {
        checkHeaderCount(headers.length + 1, line);
        headers.push(checkedHeader(name, v, line));
      }
    }
    const body = r.data.body;
    out.push({
      method: checkedMethod(r.data.method, line),
      url: checkedUrl(r.data.url, line),
      headers,
      ...(body ? { body: { kind: 'upload', name: `line ${line}`, data: body } } : {}),
    });
  });
  return out;
}
