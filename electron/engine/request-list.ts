import { requestOfSend, WHOLE_SEQUENCE } from '../../shared/model/request-list.ts';
import type { Header, Target } from '../../shared/model/scenario.ts';
import type { RunSpec } from './types.ts';

/*
 * A run's requests as the request builder (native/request-bytes.ts) takes them: the target's
 * one request, or each request of its list with the target's headers; and which of them the
 * worker's next send carries.
 */

/** One request of a run: what the request builder needs, and its body's bytes. */
export interface RunRequest {
  target: Pick<Target, 'url' | 'method' | 'headers'>;
  body: Uint8Array | null;
}

/** The target's headers go with every request of its list; a request's own header of the same name wins. */
function withTargetHeaders(target: readonly Header[], own: readonly Header[]): Header[] {
  const names = new Set(own.map((h) => h.name.toLowerCase()));
  return [...target.filter((h) => !names.has(h.name.toLowerCase())), ...own];
}

/** The requests of a run, in list order (one without a list). */
export function runRequests(spec: RunSpec): RunRequest[] {
  const list = spec.target.requests;
  if (list === undefined) return [{ target: spec.target, body: spec.body }];
  return list.map((r, j) => ({
    target: { url: r.url, method: r.method, headers: withTargetHeaders(spec.target.headers, r.headers) },
    body: spec.requestBodies?.[j] ?? null,
  }));
}

/** The spec as it would be for one request of its list alone (what the pre-flight checks). */
export function specOfRequest(spec: RunSpec, r: RunRequest): RunSpec {
  return { ...spec, target: { ...spec.target, ...r.target }, body: r.body };
}

/**
 * Which request of the list each of this worker's sends carries, in send order: the run's
 * send numbers of its sequence, mapped by the list's order (round-robin or seeded random).
 */
export class RequestChooser {
  readonly #n: number;
  readonly #order: NonNullable<Target['order']>;
  #g: number;
  readonly #step: number;

  constructor(spec: RunSpec) {
    this.#n = spec.target.requests?.length ?? 1;
    this.#order = spec.target.order ?? { kind: 'round-robin' };
    const seq = spec.sequence ?? WHOLE_SEQUENCE;
    this.#g = seq.first;
    this.#step = seq.step;
  }

  /** The request the next send will carry, without taking it (a pool per origin asks first). */
  peek(): number {
    return requestOfSend(this.#order, this.#n, this.#g);
  }

  /** The request (index into runRequests) the next send carries. */
  next(): number {
    const r = requestOfSend(this.#order, this.#n, this.#g);
    this.#g += this.#step;
    return r;
  }
}
