import type { Snapshot } from '../../shared/metrics/series.ts';

/*
 * One push endpoint's queue (docs/metrics.md "When the endpoint is down or slow"): the
 * snapshots a job's samples made, sent in order in batches, one request in flight, each bounded
 * in time. A failed push keeps its snapshots for the next try (after a pause that doubles to
 * MAX_BACKOFF_MS); past the bound on what it holds the oldest are dropped. Nothing here waits
 * in a sample's path: a sample only adds a snapshot and, when idle, starts a push. Counters are
 * cumulative, so a dropped snapshot costs the time series a point, never a total: the last
 * snapshot delivered carries every count up to it.
 */

/** How one batch is written: resolves when the endpoint took it; rejects with why not. */
export type PushWriter = (batch: readonly Snapshot[]) => Promise<void>;

/** A push the endpoint refused for its content (HTTP 4xx but 429): retrying cannot help. */
export class RefusedPushError extends Error {}

/** A push the endpoint did not answer in time: it is slow, and a part's end does not wait for it again. */
export class SlowPushError extends Error {}

/** Snapshots tagged with the part that made them, for the part's account of what was delivered. */
interface Item {
  snapshot: Snapshot;
  tag: string;
  /** Series in it: what the bound counts. */
  weight: number;
}

/** What became of one tag's snapshots. */
export interface TagAccount {
  made: number;
  delivered: number;
  /** Dropped: refused by the endpoint, or pushed out of a full queue. */
  dropped: number;
  /** Whether the newest snapshot of the tag was delivered (the last values, and so the totals). */
  lastDelivered: boolean;
}

export interface PushQueueOptions {
  write: PushWriter;
  /** Series held at most, over every queued snapshot (memory stays bounded when the endpoint is down). */
  maxSeries: number;
  /** Series sent in one push at most (at least one snapshot goes). */
  maxBatchSeries: number;
  /** The first pause after a failed push; it doubles up to MAX_BACKOFF_MS. */
  backoffMs: number;
  now?: () => number;
}

/** A failing endpoint is tried again at least this often. */
const MAX_BACKOFF_MS = 30_000;

export class PushQueue {
  readonly #o: PushQueueOptions;
  readonly #now: () => number;
  #items: Item[] = [];
  /** The items of the push in flight. */
  readonly #sending = new Set<Item>();
  #held = 0;
  #inFlight: Promise<void> | null = null;
  #failures = 0;
  #retryAt = 0;
  #retryTimer: NodeJS.Timeout | null = null;
  /** Why the last push failed; null after a push went through. */
  #lastError: string | null = null;
  /** The last push failed for want of an answer in time. */
  #slow = false;
  readonly #accounts = new Map<string, TagAccount>();
  #closed = false;

  constructor(options: PushQueueOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /** Whether a push is in flight now. */
  get busy(): boolean {
    return this.#inFlight !== null;
  }

  /** Why the last push failed; null when it went through (or none was tried). */
  get lastError(): string | null {
    return this.#lastError;
  }

  /** Adds a snapshot made for `tag` and pushes when nothing is in flight and no pause is due. */
  add(snapshot: Snapshot, tag: string): void {
    if (this.#closed) return;
    const account = this.#account(tag);
    account.made++;
    account.lastDelivered = false;
    const item = { snapshot, tag, weight: Math.max(1, snapshot.series.length) };
    this.#items.push(item);
    this.#held += item.weight;
    // The oldest go first, never the batch in flight (its outcome counts it) nor the newest.
    while (this.#held > this.#o.maxSeries) {
      const at = this.#items.findIndex((i) => !this.#sending.has(i));
      if (at < 0 || at === this.#items.length - 1) break;
      this.#drop(this.#items.splice(at, 1)[0]!);
    }
    this.#pump();
  }

  /** What became of a tag's snapshots so far. */
  account(tag: string): TagAccount {
    return { ...this.#account(tag) };
  }

  /** Forgets a tag's account (its part is over and was reported). */
  forget(tag: string): void {
    this.#accounts.delete(tag);
  }

  /**
   * Waits until a tag's snapshots are all delivered or dropped, a push fails, or `ms` pass.
   * A failing endpoint is tried once at once (a refused connection answers in moments);
   * a push still in flight is waited for within `ms`; an endpoint whose last push went
   * unanswered is not waited for again.
   */
  async settle(tag: string, ms: number): Promise<void> {
    if (this.#slow) return;
    const until = this.#now() + ms;
    if (this.#inFlight === null && this.#retryTimer !== null) {
      clearTimeout(this.#retryTimer);
      this.#retryTimer = null;
      this.#retryAt = 0;
    }
    this.#pump();
    while (this.#items.some((i) => i.tag === tag) && this.#inFlight !== null) {
      const left = until - this.#now();
      if (left <= 0) return;
      const failuresBefore = this.#failures;
      await Promise.race([this.#inFlight, new Promise((r) => setTimeout(r, left).unref())]);
      if (this.#failures > failuresBefore) return;
    }
  }

  /** Stops pushing: what is still queued is dropped (its tags' accounts say so). */
  close(): void {
    this.#closed = true;
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    const queued = this.#items.filter((i) => !this.#sending.has(i));
    this.#items = this.#items.filter((i) => this.#sending.has(i));
    for (const item of queued) this.#drop(item);
  }

  #account(tag: string): TagAccount {
    let a = this.#accounts.get(tag);
    if (!a) {
      a = { made: 0, delivered: 0, dropped: 0, lastDelivered: false };
      this.#accounts.set(tag, a);
    }
    return a;
  }

  #drop(item: Item): void {
    this.#held -= item.weight;
    const a = this.#accounts.get(item.tag);
    if (a) a.dropped++;
  }

  #pump(): void {
    if (this.#closed || this.#inFlight !== null || this.#items.length === 0) return;
    const wait = this.#retryAt - this.#now();
    if (wait > 0) {
      this.#retryTimer ??= setTimeout(() => {
        this.#retryTimer = null;
        this.#pump();
      }, wait).unref();
      return;
    }
    const batch: Item[] = [];
    let series = 0;
    for (const item of this.#items) {
      if (batch.length > 0 && series + item.weight > this.#o.maxBatchSeries) break;
      batch.push(item);
      series += item.weight;
    }
    for (const item of batch) this.#sending.add(item);
    this.#inFlight = this.#push(batch).finally(() => {
      this.#sending.clear();
      this.#inFlight = null;
      this.#pump();
    });
  }

  async #push(batch: Item[]): Promise<void> {
    try {
      await this.#o.write(batch.map((i) => i.snapshot));
      this.#failures = 0;
      this.#retryAt = 0;
      this.#lastError = null;
      this.#slow = false;
      this.#settleBatch(batch, true);
    } catch (error) {
      this.#failures++;
      this.#lastError = error instanceof Error ? error.message : String(error);
      this.#slow = error instanceof SlowPushError;
      if (error instanceof RefusedPushError) {
        this.#settleBatch(batch, false);
      } else {
        this.#retryAt = this.#now() + Math.min(MAX_BACKOFF_MS, this.#o.backoffMs * 2 ** (this.#failures - 1));
      }
    }
  }

  /** The batch's snapshots leave the queue: delivered, or refused for good. */
  #settleBatch(batch: readonly Item[], delivered: boolean): void {
    const sent = new Set(batch);
    this.#items = this.#items.filter((i) => !sent.has(i));
    for (const item of batch) {
      this.#held -= item.weight;
      const a = this.#accounts.get(item.tag);
      if (!a) continue;
      if (delivered) a.delivered++;
      else a.dropped++;
    }
    // A tag's newest snapshot is the one made last: delivered when no later one is still queued.
    if (delivered) {
      for (const tag of new Set(batch.map((i) => i.tag))) {
        const a = this.#accounts.get(tag);
        if (a && !this.#items.some((i) => i.tag === tag)) a.lastDelivered = true;
      }
    }
  }
}
