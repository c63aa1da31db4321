import { z } from 'zod';
import { LIMITS } from './defaults.ts';

/**
 * An http:// or https:// URL without credentials (they would sit in presets and history as
 * plain text). `label` starts each message ("URL", "node_exporter URL"); `example` shows a
 * valid one; `credentialsHint` says what to do instead of user:password@.
 */
export function httpUrlSchema(label: string, example: string, credentialsHint: string) {
  return z.string().superRefine((value, ctx) => {
    if (value.length > LIMITS.urlChars.max) {
      ctx.addIssue({ code: 'custom', message: `${label} is longer than ${LIMITS.urlChars.max} characters` });
      return;
    }
    const meant = httpUrlMeant(value);
    if (meant !== null) {
      ctx.addIssue({
        code: 'custom',
        message: `${label} must start with http:// or https://: did you mean ${meant}?`,
      });
      return;
    }
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `${label} is not valid (expected e.g. ${example})` });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({
        code: 'custom',
        message: `${label} must start with http:// or https:// (got ${url.protocol}//)`,
      });
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: `${label} must not carry credentials${credentialsHint}` });
    }
  });
}

/**
 * The URL a person meant when they typed a host without the scheme ("localhost:8181",
 * "127.0.0.1:8080/test.html", "example.com"): it with http:// before it, or null when the
 * text has a scheme already or does not look like a host (a port, a dot, localhost, an IPv6
 * address). new URL("localhost:8181") reads "localhost:" as the scheme.
 */
export function httpUrlMeant(text: string): string | null {
  const t = text.trim();
  if (t === '' || t.includes('://') || /\s/.test(t)) return null;
  let url: URL;
  try {
    url = new URL(`http://${t}`);
  } catch {
    return null;
  }
  const host = url.hostname;
  const hostLike = url.port !== '' || host.includes('.') || host === 'localhost' || host.startsWith('[');
  return hostLike && !url.username && !url.password ? `http://${t}` : null;
}
