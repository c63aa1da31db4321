import { z } from 'zod';
import { LIMITS } from '../model/defaults.ts';
import { jobEnvelopeSchema } from './jobs.ts';

/**
 * The web host's WebSocket messages (JSON text frames). The page asks with
 * `{ id, command, input }` and the host answers `{ kind: 'reply', id, reply }`; the events of
 * the page's jobs, whatever their kind, arrive as `{ kind: 'job', envelope }`. Both ends
 * validate what they receive.
 */
export const WEB_SOCKET_PATH = '/ws';

/**
 * The one command the page sends over HTTP instead (POST, token and client in the query, the
 * command's input as the JSON body, a reply envelope back): History's import carries whole
 * result files, far over the socket's message cap. The host caps its body at
 * IMPORT_BODY_BYTES.
 */
export const IMPORT_PATH = '/import';
export const HTTP_COMMANDS: Partial<Record<string, string>> = { 'history.import': IMPORT_PATH };

/**
 * The import's body: its files' text (LIMITS.importBytes) and what JSON escaping adds to it
 * (a result file is mostly quotes and digits: escaping quotes at most doubles it).
 */
export const IMPORT_BODY_BYTES = 2 * LIMITS.importBytes.max + 64 * 1024;

/** A page's identity across reloads (kept in sessionStorage) so a reload finds its jobs again. */
export const clientIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'client id is malformed');

export const clientMessageSchema = z.strictObject({
  id: z.number().int().nonnegative(),
  command: z.string(),
  // Absent for commands without input (JSON drops undefined).
  input: z.unknown().optional(),
});
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const commandReplySchema = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), value: z.unknown().optional() }),
  z.strictObject({
    ok: z.literal(false),
    error: z.string(),
    issues: z
      .array(z.strictObject({ path: z.string(), message: z.string() }))
      .max(1000)
      .optional(),
  }),
]);

export const pageMessageSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('reply'), id: z.number().int().nonnegative(), reply: commandReplySchema }),
  z.strictObject({ kind: z.literal('job'), envelope: jobEnvelopeSchema }),
]);
export type PageMessage = z.infer<typeof pageMessageSchema>;
