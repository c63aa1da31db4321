import { describe, expect, it } from 'vitest';
import { OriginSlot, RequestHandoff, type OriginRouting } from '../../electron/engine/native/origin-slot.ts';
import type { Client, ClientOwner } from '../../electron/engine/native/run-state.ts';
import { requestOfSend } from '../../shared/model/request-list.ts';

/** A client that records what it was sent and holds it until answered; `cap` limits it (an h2 server's stream cap). */
class FakeClient implements Client {
  readonly sent: number[] = [];
  inFlight = 0;
  prepared = 0;
  destroyed = false;
  readonly origin: number;
  readonly #owner: ClientOwner;
  readonly #handoff: RequestHandoff;
  readonly #cap: number;
  constructor(origin: number, owner: ClientOwner, handoff: RequestHandoff, cap: number) {
    this.origin = origin;
    this.#owner = owner;
    this.#handoff = handoff;
    this.#cap = cap;
  }
  get free(): number {
    return this.destroyed ? 0 : this.#cap - this.inFlight;
  }
  send(): void {
    this.sent.push(this.#handoff.next());
    this.inFlight++;
  }
  answer(): void {
    this.inFlight--;
    this.#owner.onFree(this);
  }
  prepare(): void {
    this.prepared++;
  }
  sweep(): void {}
  destroy(): void {
    this.destroyed = true;
  }
}

/** A list of 4 alternating two origins (0, 1, 0, 1), round-robin from send `first` by `step`. */
function slotOf(depth: number, caps: number[] = [depth, depth], first = 0, step = 1) {
  const made: FakeClient[] = [];
  const freed: Client[] = [];
  const handoff = new RequestHandoff();
  let g = first;
  const routing: OriginRouting = {
    chooser: {
      peek: () => requestOfSend({ kind: 'round-robin' }, 4, g),
      next: () => {
        const r = requestOfSend({ kind: 'round-robin' }, 4, g);
        g += step;
        return r;
      },
    },
    originOfRequest: [0, 1, 0, 1],
    makers: caps.map((cap, o) => (owner: ClientOwner) => {
      const c = new FakeClient(o, owner, handoff, cap);
      made.push(c);
      return c;
    }),
    handoff,
  };
  const slot = new OriginSlot(routing, depth, { onFree: (c) => freed.push(c) });
  const byOrigin = (o: number) => made.find((c) => c.origin === o);
  return { slot, made, freed, byOrigin };
}

describe('a slot over a list on two origins', () => {
  it("puts each send's request on its origin's connection, in the list's order, opening one per origin when first needed", () => {
    const { slot, made, byOrigin } = slotOf(1);
    expect(made).toHaveLength(0);
    for (let k = 0; k < 4; k++) {
      expect(slot.free).toBe(1);
      slot.send();
      expect(slot.free).toBe(0);
      expect(slot.inFlight).toBe(1);
      const c = made.find((m) => m.inFlight === 1)!;
      c.answer();
    }
    expect(made).toHaveLength(2);
    expect(byOrigin(0)!.sent).toEqual([0, 2]);
    expect(byOrigin(1)!.sent).toEqual([1, 3]);
  });

  it('keeps depth requests in flight over all its origins together (pipelining 4: 2 on each)', () => {
    const { slot, byOrigin } = slotOf(4);
    let sent = 0;
    while (slot.free > 0) {
      slot.send();
      sent++;
    }
    expect(sent).toBe(4);
    expect(byOrigin(0)!.inFlight).toBe(2);
    expect(byOrigin(1)!.inFlight).toBe(2);
    expect(slot.inFlight).toBe(4);
  });

  it("waits for room on the next request's origin when that origin caps it (an h2 server's stream limit), and hears when it frees", () => {
    const { slot, byOrigin, freed } = slotOf(8, [8, 1]);
    slot.send(); // request 0 on origin 0
    slot.send(); // request 1 on origin 1, which takes 1 at a time
    slot.send(); // request 2 on origin 0
    // Request 3 is origin 1's: no room there although the slot has 5 more.
    expect(slot.free).toBe(0);
    byOrigin(1)!.answer();
    expect(freed).toEqual([slot]);
    expect(slot.free).toBe(1);
    slot.send();
    expect(byOrigin(1)!.sent).toEqual([1, 3]);
    // Request 0 (origin 0) is next: the slot's own room counts again.
    expect(slot.free).toBe(8 - 3);
  });

  it("a worker's interleave of sends reaches only its origins: sends 1, 3, 5, ... of an alternating list are all the second's", () => {
    const { slot, made } = slotOf(1, [1, 1], 1, 2);
    for (let k = 0; k < 3; k++) {
      slot.send();
      made[0]!.answer();
    }
    expect(made.map((c) => [c.origin, c.sent])).toEqual([[1, [1, 3, 1]]]);
  });

  it('prepare opens a connection to every origin; destroy drops them all and leaves no room', () => {
    const { slot, made } = slotOf(1);
    slot.prepare();
    expect(made.map((c) => [c.origin, c.prepared])).toEqual([
      [0, 1],
      [1, 1],
    ]);
    slot.destroy();
    expect(made.every((c) => c.destroyed)).toBe(true);
    expect(slot.free).toBe(0);
  });
});
