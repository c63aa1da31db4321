/*
 * The one place of the rule that ties a live sample to the one before it: a sample at the
 * last one's seq takes that one's place (the engine's final fold, see Sample.final; the
 * server's last reading at the last tick, see foldReadings), any other is appended. Every
 * buffer of samples uses it: the engine's, the host's replay, the page's series and charts.
 */

/** What the rule reads of a sample: its tick. */
export interface Ticked {
  seq: number;
}

/** What adding a sample did: a new last one, or the last one replaced. */
export type SeriesChange = 'appended' | 'replaced';

/** What takes the last sample's place when the next comes at its seq: the next one by default. */
export type SameTick<S> = (last: S, next: S) => S;

const takeNext = <S>(_last: S, next: S): S => next;

/**
 * Adds a sample as it arrives to a list of samples: one at the last one's seq replaces it
 * (with `sameTick(last, next)`, the next one by default), any other is appended.
 */
export function addSample<S extends Ticked>(
  samples: S[],
  sample: S,
  sameTick: SameTick<S> = takeNext,
): SeriesChange {
  const last = samples.at(-1);
  if (last !== undefined && last.seq === sample.seq) {
    samples[samples.length - 1] = sameTick(last, sample);
    return 'replaced';
  }
  samples.push(sample);
  return 'appended';
}

/**
 * One part's samples in order, one per tick (the rule above). Its items are shared, not
 * copied: read them, never change them.
 */
export class SampleSeries<S extends Ticked> {
  readonly #items: S[] = [];
  readonly #sameTick: SameTick<S>;

  constructor(opts: { sameTick?: SameTick<S> } = {}) {
    this.#sameTick = opts.sameTick ?? takeNext;
  }

  /** Adds a sample; says whether it was appended or took the last one's place. */
  add(sample: S): SeriesChange {
    return addSample(this.#items, sample, this.#sameTick);
  }

  get items(): readonly S[] {
    return this.#items;
  }

  get last(): S | undefined {
    return this.#items.at(-1);
  }

  get length(): number {
    return this.#items.length;
  }
}
