import type { Client, ClientOwner, RequestLedger } from './run-state.ts';
import { WARM_REQUESTS } from './warm-pool.ts';

/*
 * The open model's warm phase (wrk2 opens all its connections before its schedule; this also
 * proves them): before the common start, the pool's clients open their connections (TLS
 * handshakes included) and send warm requests on them, closed loop, until each has answered
 * and WARM_REQUESTS went out, so the first second of the schedule runs on open connections
 * and on code V8 has compiled already. The warm requests go into a ledger of their own that
 * the run never reads. Bounded in time: when the server does not answer in time, the clients
 * that answered are kept, the others are closed, and the run starts anyway.
 */

/** A client's owner that forwards to whoever holds the client now: the warm phase, then a driver's slot. */
class Relay implements ClientOwner {
  to: ClientOwner;
  constructor(to: ClientOwner) {
    this.to = to;
  }
  onFree(client: Client, now?: number): void {
    this.to.onFree(client, now);
  }
}

/** The warm clients, handed to the open driver's pool one by one. */
export interface WarmStock {
  /** A warm client (open, answered, nothing in flight) that now reports to `owner`; null when none is left. */
  take(owner: ClientOwner): Client | null;
  /** Closes the clients never taken. */
  close(): void;
}

export interface WarmOutcome {
  stock: WarmStock;
  /** How long the phase took, seconds. */
  seconds: number;
  /** Clients ready (open and answered) at its end. */
  ready: number;
  /** Warm requests answered. */
  requests: number;
  /** The deadline passed before every client answered. */
  timedOut: boolean;
}

interface Warming {
  client: Client;
  relay: Relay;
  /** Requests the client takes at once (its free count before any send). */
  room: number;
  answered: number;
  /** Its last request failed (its connection is closed, or never opened). */
  failed: boolean;
}

/**
 * Opens `connections` clients through `make` (their requests booked in `ledger`, the warm
 * phase's own) and warms them; resolves when every one has answered and the warm requests are
 * done, at the deadline, or at once when `signal` aborts (nothing kept then).
 */
export function warmClients(opts: {
  connections: number;
  /** Warm requests a client keeps in flight: 1 for HTTP/1.1, a few streams for HTTP/2. */
  window: number;
  deadlineMs: number;
  make: (owner: ClientOwner) => Client;
  ledger: RequestLedger;
  signal: AbortSignal;
}): Promise<WarmOutcome> {
  const startedAt = performance.now();
  const totals = opts.ledger.recorder.totals;
  const target = Math.max(WARM_REQUESTS, opts.connections);
  const all: Warming[] = [];
  let sent = 0;
  // What the ledger had booked at the last report: a client reports right after booking what
  // finished on it, so the growth since is that client's.
  let seenResponses = totals.responses;
  let seenErrors = totals.errors;
  return new Promise<WarmOutcome>((resolve) => {
    let settled = false;
    const end = (timedOut: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      opts.signal.removeEventListener('abort', onAbort);
      const ready: Warming[] = [];
      for (const w of all) {
        const keep = !opts.signal.aborted && w.answered > 0 && !w.failed && w.client.free === w.room;
        if (keep) ready.push(w);
        else w.client.destroy();
      }
      resolve({
        stock: {
          take(owner) {
            const w = ready.pop();
            if (w === undefined) return null;
            w.relay.to = owner;
            return w.client;
          },
          close() {
            for (const w of ready.splice(0)) w.client.destroy();
          },
        },
        seconds: (performance.now() - startedAt) / 1000,
        ready: ready.length,
        requests: totals.responses,
        timedOut,
      });
    };
    const onAbort = (): void => end(false);
    const deadline = setTimeout(() => end(true), opts.deadlineMs);
    opts.signal.addEventListener('abort', onAbort, { once: true });

    const fill = (w: Warming): void => {
      while (sent < target && w.room - w.client.free < opts.window && w.client.free > 0) {
        sent++;
        const now = performance.now();
        w.client.send(now, now);
      }
    };
    const done = (): boolean =>
      sent >= target && all.every((w) => w.answered > 0 && !w.failed && w.client.free === w.room);

    for (let i = 0; i < opts.connections; i++) {
      const w: Warming = {
        client: null as unknown as Client,
        relay: new Relay({
          onFree: () => {
            if (settled) return;
            if (totals.errors > seenErrors) w.failed = true;
            else if (totals.responses > seenResponses) w.failed = false;
            w.answered += totals.responses - seenResponses;
            seenResponses = totals.responses;
            seenErrors = totals.errors;
            if (done()) end(false);
            else fill(w);
          },
        }),
        room: 0,
        answered: 0,
        failed: false,
      };
      w.client = opts.make(w.relay);
      w.room = w.client.free;
      all.push(w);
    }
    for (const w of all) fill(w);
  });
}
