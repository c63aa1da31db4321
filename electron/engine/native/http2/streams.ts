import { connectionError, UnsolicitedFrameError } from './errors.ts';
import type { H2Exchange } from './exchange.ts';
import { FewMap } from './few-map.ts';
import { frameName } from './rules.ts';

/*
 * The client's streams on one HTTP/2 connection: the open ones by id, the ones it gave up on
 * (whose late frames are dropped quietly), and the next id. A frame for a stream the client
 * never opened, or one already closed, is a connection error (RFC 9113 section 5.1).
 */

const MAX_STREAM_ID = 2 ** 31 - 1;
/** Streams given up (cancelled or reset by us) whose late frames are still dropped quietly. */
const MAX_ABANDONED = 4096;

export class H2Streams {
  /** Usually one at a time (one stream per connection): a FewMap, not a Map (few-map.ts). */
  private readonly open = new FewMap<number, H2Exchange>();
  /** Streams the client gave up on, oldest first: frames the server sent before it knew are dropped. */
  private readonly abandoned = new Set<number>();
  private nextId = 1;

  /** Streams open. */
  get size(): number {
    return this.open.size;
  }

  /** True once every stream id was used: the connection takes no new stream. */
  get exhausted(): boolean {
    return this.nextId > MAX_STREAM_ID;
  }

  /** Opens the next stream (client ids are odd and rising) for the exchange; returns its id. */
  add(ex: H2Exchange): number {
    const id = this.nextId;
    this.nextId += 2;
    ex.id = id;
    this.open.set(id, ex);
    return id;
  }

  get(id: number): H2Exchange | undefined {
    return this.open.get(id);
  }

  /** Stops tracking an open stream; false when it was not open. */
  delete(id: number): boolean {
    return this.open.delete(id);
  }

  values(): Iterable<H2Exchange> {
    return this.open.values();
  }

  /**
   * Every open stream, no longer tracked (the connection ended): those whose request went out,
   * and those `unwritten` says never did.
   */
  takeAll(unwritten: (id: number) => boolean): [H2Exchange[], H2Exchange[]] {
    const out: [H2Exchange[], H2Exchange[]] = [[], []];
    for (const ex of this.open.values()) out[unwritten(ex.id) ? 1 : 0].push(ex);
    this.open.clear();
    return out;
  }

  /** A stream given up on: its late frames are dropped, not taken for frames on a closed stream. */
  abandon(id: number): void {
    this.abandoned.add(id);
    if (this.abandoned.size > MAX_ABANDONED) {
      for (const oldest of this.abandoned) {
        this.abandoned.delete(oldest);
        break;
      }
    }
  }

  /**
   * The open stream a DATA or HEADERS frame is for; null for one the client gave up on (its
   * late frames are dropped). A stream the client never opened, or one already closed, is a
   * connection error (section 5.1).
   */
  receiving(id: number, type: number): H2Exchange | null {
    const ex = this.known(id, type);
    if (ex !== null || this.abandoned.has(id)) return ex;
    throw new UnsolicitedFrameError(
      `${frameName(type)} frame on stream ${id}, which was already closed (RFC 9113 section 5.1)`,
    );
  }

  /** The open stream with this id; null when it is closed; a connection error when it is idle. */
  known(id: number, type: number): H2Exchange | null {
    const ex = this.open.get(id);
    if (ex !== undefined) return ex;
    if (id % 2 === 0 || id >= this.nextId) {
      connectionError(
        `${frameName(type)} frame on stream ${id}, which the client never opened (RFC 9113 section 5.1)`,
      );
    }
    return null;
  }
}
