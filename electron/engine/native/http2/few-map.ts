/**
 * A Map for the usual case of one entry at a time: an HTTP/2 connection with one stream open,
 * a client with one request on the wire. V8 shrinks a Map whose last entry is deleted (a new
 * table) and grows it again when the next entry comes (another), so a Map that goes 1, 0, 1
 * per response allocated twice per response: with two such Maps, 4% of an HTTP/2 engine
 * thread's time at 100 connections x 1 stream. Here the first entry sits in fields while it
 * is alone; a second one goes to a Map, and every later one until both are empty again, so
 * the field's entry is always the oldest: iteration is in insertion order, as a Map's is.
 */
export class FewMap<K, V> {
  private held = false;
  private key: K | undefined = undefined;
  private value: V | undefined = undefined;
  private readonly more = new Map<K, V>();

  get size(): number {
    return (this.held ? 1 : 0) + this.more.size;
  }

  get(k: K): V | undefined {
    if (this.held && this.key === k) return this.value;
    return this.more.size === 0 ? undefined : this.more.get(k);
  }

  has(k: K): boolean {
    return (this.held && this.key === k) || (this.more.size !== 0 && this.more.has(k));
  }

  set(k: K, v: V): void {
    if (this.held && this.key === k) {
      this.value = v;
    } else if (!this.held && this.more.size === 0) {
      this.held = true;
      this.key = k;
      this.value = v;
    } else {
      this.more.set(k, v);
    }
  }

  /** Removes an entry; false when there was none. */
  delete(k: K): boolean {
    if (this.held && this.key === k) {
      this.held = false;
      this.key = undefined;
      this.value = undefined;
      return true;
    }
    return this.more.size !== 0 && this.more.delete(k);
  }

  clear(): void {
    this.held = false;
    this.key = undefined;
    this.value = undefined;
    this.more.clear();
  }

  /**
   * Entries in insertion order. As with a Map, an entry deleted before the iteration reaches
   * it is skipped, and one added to the Map meanwhile is visited.
   */
  *entries(): Generator<[K, V]> {
    if (this.held) yield [this.key as K, this.value as V];
    yield* this.more;
  }

  *keys(): Generator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): Generator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): Generator<[K, V]> {
    return this.entries();
  }
}
