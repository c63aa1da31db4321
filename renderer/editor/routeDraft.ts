import type { Target } from '../../shared/model/scenario.ts';

/*
 * Where a target's sockets go (shared/model/route.ts) as the card holds it: the connect-to
 * rules as one text (curl's HOST:PORT:ADDRESS:PORT, separated by spaces, commas or lines, as a
 * person pastes them from a command line) and the unix socket path; empty: the URL's host.
 */
export interface RouteDraft {
  connectTo: string;
  unixSocket: string;
}

export const NO_ROUTE: RouteDraft = { connectTo: '', unixSocket: '' };

/** The rules of a connect-to text, in order. */
function rulesOf(text: string): string[] {
  return text.split(/[\s,]+/).filter((r) => r !== '');
}

/** A saved target's route as the card shows it. */
export function routeDraftOf(t: Pick<Target, 'connectTo' | 'unixSocket'>): RouteDraft {
  return { connectTo: (t.connectTo ?? []).join(' '), unixSocket: t.unixSocket ?? '' };
}

/** The route fields of the target the schema checks (left out when empty, as before they existed). */
export function routeInput(d: RouteDraft): { connectTo?: string[]; unixSocket?: string } {
  const rules = rulesOf(d.connectTo);
  const socket = d.unixSocket.trim();
  return {
    ...(rules.length > 0 ? { connectTo: rules } : {}),
    ...(socket !== '' ? { unixSocket: socket } : {}),
  };
}

/** The fields of target i the card shows a message beside. */
export function routePaths(i: number): string[] {
  return [`targets.${i}.connectTo`, `targets.${i}.unixSocket`];
}

/**
 * A rule's issue (targets.i.connectTo.j) shown at the one Connect to field, naming the rule;
 * it says more than one about the field as a whole (a unix socket given too), so it wins.
 */
export function withRouteIssues(issues: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, message] of issues) {
    const m = /^(targets\.\d+\.connectTo)\.(\d+)$/.exec(path);
    if (m && !out.has(m[1]!)) out.set(m[1]!, `rule ${Number(m[2]) + 1}: ${message}`);
  }
  for (const [path, message] of issues) {
    if (!/^targets\.\d+\.connectTo\.\d+$/.test(path) && !out.has(path)) out.set(path, message);
  }
  return out;
}
