/** A verdict as text lines, for the text reports and the CLI: the state first, every caveat under it. */
import type { Caveat } from '../verdict/caveats.ts';
import { verdictWord, type Verdict } from '../verdict/verdict.ts';

/** '!' figures that are not the server's, '~' a stopped run, '-' a note; ' ' clean. */
export function verdictMark(v: Verdict): string {
  if (v.caveats.some((c) => c.severity === 'bad')) return '!';
  return v.state === 'partial' ? '~' : ' ';
}

export function caveatMark(c: Caveat): string {
  return c.severity === 'bad' ? '!' : c.code === 'partial' ? '~' : '-';
}

/**
 * "Verdict: clean (the figures are the server's)", or the state in capitals and each caveat
 * on its own line, so a reader cannot miss it.
 */
export function formatVerdictLines(v: Verdict): string[] {
  if (v.clean && v.caveats.length === 0) return ['Verdict: clean: the figures are the server’s.'];
  const head = v.clean ? 'Verdict: clean, with notes' : `Verdict: ${verdictWord(v).toUpperCase()}`;
  return [head, ...v.caveats.map((c) => `  ${caveatMark(c)} ${c.message}`)];
}
