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
