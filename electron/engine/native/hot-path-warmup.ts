import { DEFAULTS } from '../../../shared/model/defaults.ts';
import { Recorder } from '../recording/recorder.ts';
import { T_DONE, T_FIRST_BYTE, T_INTENDED, T_START, T_WRITTEN } from './phases.ts';
import { ResponseParser } from './http1/response-parser.ts';
import { RequestLedger } from './run-state.ts';

/**
 * Answers run through the path at most: enough calls for V8 to compile it optimized. Measured
 * (thread CPU per 2,000 answers, fresh process, loaded 2-core machine): 25-30 ms for the first
 * 2,000, 15-20 ms for each next one up to 12,000-16,000, then 2-6 ms.
 */
const MAX_RESPONSES = 12_000;
/**
 * The schedule's first stretch whose answers are warmed ahead: at a low rate cold code costs
 * a few microseconds an answer, which no send waits for, so a slow schedule pays (almost) nothing.
 */
const COLD_SECONDS = 0.6;
/** Responses per read: one read holds one answer or several, as a busy connection's do (the last chunked). */
const PER_READ = [1, 1, 4, 16];

/** A typical head; the Date changes each second on a real server, which a remembered head misses. */
const head = (second: number, body: string, framing: string): string =>
  `HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: Wed, 02 Dec 2026 10:00:${String(second % 60).padStart(2, '0')} GMT\r\n` +
  `Content-Type: text/html\r\n${framing}\r\nConnection: keep-alive\r\n\r\n${body}`;

const chunked = (second: number): string =>
  head(second, '6\r\nhello\n\r\n0\r\n\r\n', 'Transfer-Encoding: chunked');
const sized = (second: number): string => head(second, 'hello\n', 'Content-Length: 6');

/**
 * Runs the open model's answer path (the response parser, the ledger and the recorder: the
 * code each response runs through) on synthetic bytes and throwaway figures before the first
 * scheduled send: as many answers as the schedule's first COLD_SECONDS at `rate` brings. Cold,
 * that code ran interpreted through the schedule's first thousands of responses, in a thread
 * that had sent no request yet: the sends due meanwhile went out late (up to 23 ms in the
 * first 100 ms at 20,000 req/s). No byte reaches the server. Returns how many answers the
 * parser framed, and how many the recorder counted.
 */
export function warmResponsePath(rate: number, timeoutMs: number): { parsed: number; recorded: number } {
  const responses = Math.min(MAX_RESPONSES, Math.ceil(rate * COLD_SECONDS));
  const recorder = new Recorder({ sloMs: 1000, warmup: false, now: performance.now() });
  const ledger = new RequestLedger(recorder, { clock: 'intended', corrected: false, timeoutMs });
  let n = 0;
  const parser = new ResponseParser(
    (status, bodyBytes, totalBytes) => {
      const now = performance.now();
      ledger.started();
      recorder.sentLate(n % 500);
      const t = ledger.times;
      t[T_INTENDED] = now - 0.3;
      t[T_START] = now - 0.3;
      t[T_WRITTEN] = now - 0.2;
      t[T_FIRST_BYTE] = now - 0.05;
      t[T_DONE] = now;
      ledger.response(status, bodyBytes, totalBytes, parser.server);
      n++;
    },
    { headRequests: false, maxHeadBytes: DEFAULTS.maxResponseHeaderBytes },
  );
  // Reads of 1, 4 or 16 answers, sized or chunked, under a few Dates (built once).
  const reads = [0, 1, 2, 3].flatMap((second) =>
    PER_READ.map((count, i) => Buffer.from((i === 3 ? chunked : sized)(second).repeat(count))),
  );
  for (let read = 0; n < responses; read++) {
    // A new Date every 64 reads: a head is mostly the one before it, now and then a new one.
    const bytes = reads[((read >> 6) % 4) * PER_READ.length + (read % PER_READ.length)]!;
    parser.now = performance.now();
    // Split now and then, as a read may end inside a response.
    const cut = read % 5 === 4 ? bytes.length >> 1 : bytes.length;
    if (!parser.execute(bytes, 0, cut) || !parser.execute(bytes, cut, bytes.length)) {
      throw new Error(`the answer path's warm-up fed a response the parser refused: ${parser.error}`);
    }
  }
  recorder.takeWindow(0);
  return { parsed: n, recorded: recorder.totals.total };
}
