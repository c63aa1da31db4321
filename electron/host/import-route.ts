/**
 * The web host's History import route (POST IMPORT_PATH): history.import over HTTP, its body
 * read as it arrives (import-body.ts) up to IMPORT_BODY_BYTES, guarded as the socket is (token,
 * this host's own page); one import at a time, a few more waiting unread, more turned away.
 */
import type http from 'node:http';
import type { CommandReply } from '../../shared/contract/api.ts';
import { IMPORT_BODY_BYTES } from '../../shared/contract/web-protocol.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { importIntoHistory } from '../stores/history-import.ts';
import type { HistoryStore } from '../stores/history-store.ts';
import { collectGarbage, steadyYoungGeneration } from '../stores/json/heap.ts';
import { securityHeaders } from './csp.ts';
import { sendText } from './http-replies.ts';
import { ImportTooLargeError, readImportBody } from './import-body.ts';

/** Imports waiting their turn behind the one being read; more are turned away (503). */
export const IMPORTS_WAITING = 8;

/**
 * Imports one at a time, the others waiting unread (their bodies stay in the sockets), at most
 * IMPORTS_WAITING of them; past that a new one is turned away at once.
 */
export class ImportQueue {
  #tail: Promise<unknown> = Promise.resolve();
  #queued = 0;

  /** Runs `work` in its turn; null when too many wait already. */
  run<T>(work: () => Promise<T>): Promise<T> | null {
    if (this.#queued >= 1 + IMPORTS_WAITING) return null;
    this.#queued++;
    const turn = this.#tail.then(work).finally(() => this.#queued--);
    this.#tail = turn.catch(() => undefined);
    return turn;
  }
}

/** A request's body, refused (ImportTooLargeError) once past `max` bytes: no more is read. */
async function* capped(body: AsyncIterable<Buffer>, max: number): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) throw new ImportTooLargeError();
    yield chunk;
  }
}

export interface ImportRoute {
  tokenMatches(candidate: string | null): boolean;
  queue: ImportQueue;
  history: HistoryStore;
  appVersion: string;
}

/**
 * History's import (IMPORT_PATH): the history.import command over HTTP, its input the JSON
 * body, read as it arrives up to IMPORT_BODY_BYTES (import-body.ts), guarded as the socket is
 * (token, this host's own page); one import at a time, a few more waiting unread.
 */
export async function serveImport(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  route: ImportRoute,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://host.invalid');
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return sendText(res, 405, 'Method not allowed.');
  }
  if (!route.tokenMatches(url.searchParams.get('token')))
    return sendText(res, 401, 'Missing or wrong token.');
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${req.headers.host?.toLowerCase()}`) {
    return sendText(res, 403, 'Foreign origin.');
  }
  const tooLarge = (): void => {
    res.setHeader('connection', 'close');
    sendText(
      res,
      413,
      `The files of one import are at most ${LIMITS.importBytes.max / 1024 / 1024} MiB together; read a larger result with \`trebuchet report\`.`,
    );
    req.destroy();
  };
  // Refused before a byte is read when the body says its size.
  if (Number(req.headers['content-length'] ?? 0) > IMPORT_BODY_BYTES) return tooLarge();
  const turn = route.queue.run(async () => {
    // The import before's tree goes before this one's is built (heap.ts), and the young
    // generation stays steady while this one's is read and saved.
    collectGarbage();
    steadyYoungGeneration(true);
    try {
      const read = await readImportBody(capped(req, IMPORT_BODY_BYTES));
      if (!read.ok) return { status: 400, text: read.message };
      const reply: CommandReply = await importIntoHistory(route.history, read.files, route.appVersion).then(
        (value) => ({ ok: true, value }),
        (error: unknown) => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
      return { status: 200, text: JSON.stringify(reply) };
    } finally {
      steadyYoungGeneration(false);
    }
  });
  if (turn === null) {
    return sendText(
      res,
      503,
      `${IMPORTS_WAITING} imports are waiting already; import these once they are done.`,
    );
  }
  let answer: { status: number; text: string };
  try {
    answer = await turn;
  } catch (e) {
    if (e instanceof ImportTooLargeError) return tooLarge();
    throw e;
  }
  if (answer.status !== 200) return sendText(res, answer.status, answer.text);
  res.writeHead(200, {
    ...securityHeaders(),
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(answer.text),
    'cache-control': 'no-store',
  });
  res.end(answer.text);
}
