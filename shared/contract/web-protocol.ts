import { z } from 'zod';
import { runEventSchema } from './api.ts';
import { capacityEventSchema } from '../capacity/plan.ts';
import { comparisonEventSchema } from '../comparison/cells.ts';

/**
 * The web host's WebSocket messages (JSON text frames). The page asks with
 * `{ id, command, input }` and the host answers `{ kind: 'reply', id, reply }`; run events
 * arrive as `{ kind: 'event', event }`, comparison events as `{ kind: 'comparison', event }`,
 * capacity search events as `{ kind: 'capacity', event }`. Both ends validate what they receive.
 */
export const WEB_SOCKET_PATH = '/ws';

/** A page's identity across reloads (kept in sessionStorage) so a reload finds its runs again. */
export const clientIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'client id is malformed');

export const clientMessageSchema = z.object({
  id: z.number().int().nonnegative(),
  command: z.string(),
  // Absent for commands without input (JSON drops undefined).
  input: z.unknown().optional(),
});
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const commandReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown().optional() }),
  z.object({
    ok: z.literal(false),
    error: z.string(),
    issues: z
      .array(z.strictObject({ path: z.string(), message: z.string() }))
      .max(1000)
      .optional(),
  }),
]);

export const hostMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reply'), id: z.number().int().nonnegative(), reply: commandReplySchema }),
  z.object({ kind: z.literal('event'), event: runEventSchema }),
  z.object({ kind: z.literal('comparison'), event: comparisonEventSchema }),
  z.object({ kind: z.literal('capacity'), event: capacityEventSchema }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;
