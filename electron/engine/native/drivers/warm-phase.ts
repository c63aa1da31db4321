import type { Dialer } from '../socket/dial.ts';
import type { Client, ClientOwner } from '../run-state.ts';

/*
 * The open model's warm phase: before the common start the pool's clients open their
 * connections and complete their TLS handshakes (wrk2 opens all of its connections before its
 * schedule too), so the schedule's first second runs on open connections instead of waiting
 * for handshakes that compete with its sends for the CPU. No request goes out: the server's
 * counts and logs show the run's requests only. Bounded in time: the clients still opening at
 * the deadline are closed, and the run starts anyway.
 */

/** A client's owner that forwards to whoever holds the client now: nobody, then a driver's slot. */
class Relay implements ClientOwner {
  to: ClientOwner | null = null;
  onFree(client: Client): void {
    this.to?.onFree(client);
  }
}

/** The warm clients, handed to the open driver's pool one by one. */
export interface WarmStock {
  /** A warm client (its connection open) that now reports to `owner`; null when none is left. */
  take(owner: ClientOwner): Client | null;
  /** Closes the clients never taken. */
  close(): void;
}

export interface WarmOutcome {
  stock: WarmStock;
  /** How long the phase took, seconds. */
  seconds: number;
  /** Clients whose connection opened. */
  ready: number;
}

/** A dialer that can report whether its next dial opened: the warm phase watches each client's first. */
export interface WatchedDialer extends Dialer {
  watchNext(listener: ((ok: boolean) => void) | null): void;
}

/** `inner`, watched (the clients' dialer: after the warm phase it adds nothing to a dial). */
export function watchedDialer(inner: Dialer): WatchedDialer {
  let next: ((ok: boolean) => void) | null = null;
  return {
    endpoint: inner.endpoint,
    get tlsFacts() {
      return inner.tlsFacts;
    },
    watchNext: (listener) => (next = listener),
    dial(onRead, done) {
      const listener = next;
      next = null;
      if (listener === null) return inner.dial(onRead, done);
      return inner.dial(onRead, (err, socket, timing) => {
        done(err, socket, timing);
        listener(err === null && socket !== null);
      });
    },
  };
}

/**
 * Opens `connections` clients through `make` (their dialer `dialer`) and resolves once every one's connection is open
 * (or failed to), at the deadline, or at once when `signal` aborts (nothing kept then).
 */
export function warmClients(opts: {
  connections: number;
  deadlineMs: number;
  make: (owner: ClientOwner) => Client;
  dialer: WatchedDialer;
  signal: AbortSignal;
}): Promise<WarmOutcome> {
  const startedAt = performance.now();
  const all: { client: Client; relay: Relay; open: boolean }[] = [];
  let pending = opts.connections;
  return new Promise<WarmOutcome>((resolve) => {
    let settled = false;
    const end = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      opts.signal.removeEventListener('abort', end);
      const kept = (w: (typeof all)[number]): boolean => w.open && !opts.signal.aborted;
      const ready = all.filter(kept);
      for (const w of all) if (!kept(w)) w.client.destroy();
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
      });
    };
    const deadline = setTimeout(end, opts.deadlineMs);
    opts.signal.addEventListener('abort', end, { once: true });
    for (let i = 0; i < opts.connections; i++) {
      const relay = new Relay();
      const w = { client: opts.make(relay), relay, open: false };
      all.push(w);
    }
    for (const w of all) {
      opts.dialer.watchNext((ok) => {
        w.open = ok;
        if (--pending === 0) end();
      });
      w.client.prepare();
    }
    opts.dialer.watchNext(null);
    if (opts.connections === 0) end();
  });
}
