import type { ListRequestInput } from '../model/scenario.ts';
import { checkRequestCount, checkedUrl, linesOf } from './problem.ts';

/** http_load's url file: one URL per line, each a GET; blank lines and # comments are skipped. */
export function parseUrlFormat(text: string): ListRequestInput[] {
  const out: ListRequestInput[] = [];
  linesOf(text).forEach((raw, i) => {
    const t = raw.trim();
    if (t === '' || t.startsWith('#')) return;
    checkRequestCount(out.length + 1, i + 1);
    out.push({ method: 'GET', url: checkedUrl(t, i + 1) });
  });
  return out;
}
