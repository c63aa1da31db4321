import type { ListRequestInput } from '../model/scenario.ts';
import {
  checkHeaderCount,
  checkRequestCount,
  checkedHeader,
  checkedMethod,
  checkedUrl,
  linesOf,
  TargetsFileError,
} from './problem.ts';

/** A request line of vegeta's http format: METHOD URL. */
export const REQUEST_LINE = /^([A-Za-z]+)\s+(\S+)$/;

/**
 * vegeta's http format: a `METHOD URL` line, then its header lines (`Name: value`), then an
 * optional `@path` line naming its body file; a blank line (or the next request line) ends a
 * request; lines starting with # are comments. A body path is given as written (the caller
 * resolves a relative one).
 */
export function parseHttpFormat(text: string): ListRequestInput[] {
  const out: ListRequestInput[] = [];
  let current: (ListRequestInput & { headers: NonNullable<ListRequestInput['headers']> }) | null = null;
  let hasBody = false;
  linesOf(text).forEach((raw, i) => {
    const line = i + 1;
    const t = raw.trim();
    if (t.startsWith('#')) return;
    if (t === '') {
      current = null;
      return;
    }
    const request = REQUEST_LINE.exec(t);
    if (current === null || (request && /^[A-Z]+$/.test(request[1]!))) {
      if (!request) {
        throw new TargetsFileError({
          line,
          field: 'request line',
          message: `"${t.slice(0, 80)}" is not METHOD URL (e.g. GET http://127.0.0.1:8080/)`,
        });
      }
      checkRequestCount(out.length + 1, line);
      current = { method: checkedMethod(request[1]!, line), url: checkedUrl(request[2]!, line), headers: [] };
      hasBody = false;
      out.push(current);
      return;
    }
    if (t.startsWith('@')) {
      if (hasBody)
        throw new TargetsFileError({ line, field: 'body', message: 'a request has one body file' });
      const path = t.slice(1).trim();
      if (path === '')
        throw new TargetsFileError({ line, field: 'body', message: 'the body file path after @ is empty' });
      current.body = { kind: 'file', path };
      hasBody = true;
      return;
    }
    if (hasBody) {
      throw new TargetsFileError({ line, field: 'header', message: 'headers come before the @body line' });
    }
    const colon = t.indexOf(':');
    if (colon <= 0) {
      throw new TargetsFileError({
        line,
        field: 'header',
        message: `"${t.slice(0, 80)}" is not Name: value`,
      });
    }
    checkHeaderCount(current.headers.length + 1, line);
    current.headers.push(checkedHeader(t.slice(0, colon).trim(), t.slice(colon + 1).trim(), line));
  });
  return out;
}
