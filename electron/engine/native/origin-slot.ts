import type { Client, ClientOwner } from './run-state.ts';

/*
 * A list over several origins: the drivers' connection slot becomes one connection per
 * origin (vegeta's worker over http.Transport's pool per host, http_load's slot that
 * connects to each URL's host). The list's order stays the worker's: the slot takes the
 * next send's request and puts it on its connection to that request's origin. So -c N keeps
 * N x pipelining requests in flight over the whole list, counts stay exact (send k of the run
 * carries entry k mod n, whatever the origins' speeds), and a slot opens at most one
 * connection (or HTTP/2 session) per origin.
 */

/** Which request each send carries, and the origin (pool) each request goes to. */
export interface OriginRouting {
  /** The chooser of the run's order: peek() names the next send's request, next() takes it. */
  chooser: { peek(): number; next(): number };
  /** Per request of the list, the index of its origin. */
  originOfRequest: readonly number[];
  /** Per origin, a client on its own dialer; it takes the request index set in `handoff`. */
  makers: readonly ((owner: ClientOwner) => Client)[];
  /** What the origin clients' list chooser returns: the request this slot just took. */
  handoff: RequestHandoff;
}

/** Hands the slot's chosen request to the origin client it sends on (that client's `chooser`). */
export class RequestHandoff {
  index = 0;

  next(): number {
    return this.index;
  }
}

/** One slot: up to `depth` requests in flight over its connections, one per origin it used. */
export class OriginSlot implements Client {
  readonly #routing: OriginRouting;
  readonly #depth: number;
  readonly #owner: ClientOwner;
  readonly #clients: (Client | null)[];
  #destroyed = false;

  constructor(routing: OriginRouting, depth: number, owner: ClientOwner) {
    this.#routing = routing;
    this.#depth = depth;
    this.#owner = owner;
    this.#clients = routing.makers.map(() => null);
  }

  /** The slot's room, as far as the next send's origin allows (an HTTP/2 server may cap its streams lower). */
  get free(): number {
    if (this.#destroyed) return 0;
    const room = this.#depth - this.inFlight;
    const next = this.#clients[this.#routing.originOfRequest[this.#routing.chooser.peek()]!];
    return Math.max(0, Math.min(room, next === null || next === undefined ? room : next.free));
  }

  get inFlight(): number {
    let n = 0;
    for (const c of this.#clients) if (c !== null) n += c.inFlight;
    return n;
  }

  send(): void {
    const r = this.#routing;
    const request = r.chooser.next();
    r.handoff.index = request;
    this.#client(r.originOfRequest[request]!).send();
  }

  /** Opens a connection to every origin (the open model's pool opens ahead of need). */
  prepare(): void {
    for (let o = 0; o < this.#clients.length; o++) this.#client(o).prepare();
  }

  sweep(now: number): void {
    for (const c of this.#clients) c?.sweep(now);
  }

  destroy(): void {
    this.#destroyed = true;
    for (const c of this.#clients) c?.destroy();
  }

  #client(origin: number): Client {
    let c = this.#clients[origin];
    if (c === null || c === undefined) {
      c = this.#routing.makers[origin]!({ onFree: () => this.#owner.onFree(this) });
      this.#clients[origin] = c;
    }
    return c;
  }
}
