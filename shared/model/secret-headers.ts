import { isRecord } from './validation.ts';

const SECRET_HEADER_NAMES = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);

/**
 * Header names whose values are credentials: Authorization, Proxy-Authorization, Cookie,
 * X-API-Key, and any name ending in "-Token" or "Api-Key" (X-Auth-Token, X-Goog-Api-Key).
 */
export function isSecretHeader(name: string): boolean {
  const n = name.toLowerCase();
  return SECRET_HEADER_NAMES.has(n) || /(^|[-_])token$/.test(n) || /api[-_]?key$/.test(n);
}

/*
 * Secrets are found structurally: any array under a key named "headers" holding
 * { name, value } objects (a scenario's targets, a comparison plan's targets, a
 * RunResult's target). A sealed header is stored as { name, value: "", sealed: "<cipher>" },
 * so a reader without the key still sees a valid, empty header.
 */
export const SEALED = 'sealed';

export interface HeaderLike {
  name: string;
  value: string;
  sealed?: unknown;
}

function isHeaderLike(v: unknown): v is HeaderLike {
  return isRecord(v) && typeof v.name === 'string' && typeof v.value === 'string';
}

/** Calls fn on every header object inside a JSON tree. */
export function forEachHeader(tree: unknown, fn: (h: HeaderLike) => void): void {
  if (Array.isArray(tree)) {
    for (const item of tree) forEachHeader(item, fn);
    return;
  }
  if (!isRecord(tree)) return;
  for (const [key, value] of Object.entries(tree)) {
    if (key === 'headers' && Array.isArray(value)) {
      for (const h of value) if (isHeaderLike(h)) fn(h);
    } else if (typeof value === 'object' && value !== null) {
      forEachHeader(value, fn);
    }
  }
}

/** A deep copy that is plain JSON, safe to mutate. */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Secret header values (non-empty) in a tree. */
export function countSecrets(tree: unknown): number {
  let n = 0;
  forEachHeader(tree, (h) => {
    if (isSecretHeader(h.name) && h.value !== '') n++;
  });
  return n;
}

/** Clears every secret value in place (the tree must be a copy); returns how many. */
export function clearSecrets(tree: unknown): number {
  let n = 0;
  forEachHeader(tree, (h) => {
    if (!isSecretHeader(h.name) || h.value === '') return;
    h.value = '';
    n++;
  });
  return n;
}

/**
 * A copy of a value fit to leave the app as a file (JSON, HTML): secret header values
 * (Authorization, Cookie, API keys) cleared, unless the user asked to keep them.
 */
export function withoutSecrets<T>(value: T, keep = false): T {
  if (keep || countSecrets(value) === 0) return value;
  const copy = jsonCopy(value);
  clearSecrets(copy);
  return copy;
}
