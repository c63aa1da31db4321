import type net from 'node:net';

/**
 * Node's internal stream_wrap binding, the layer under net.Socket: what the native clients
 * use to write and read a connection without Node's stream machinery per request (see
 * socket-writer.ts and readDirectly() below). Reached through `process.binding`, whose
 * allow-list has carried it unchanged since Node 12 (Node 22 and 24, Electron's included,
 * without a deprecation warning). Every use checks that it is there in the shape used here
 * and falls back to the public API when it is not.
 */

export interface WriteReq {
  oncomplete: (status: number) => void;
  /** Keeps the bytes of an asynchronous write alive until it completes. */
  buffer: unknown;
}

export interface StreamWrapBinding {
  WriteWrap: new () => WriteReq;
  /** What the last read and write reported, at these indices. */
  streamBaseState: Int32Array;
  kReadBytesOrError: number;
  kLastWriteWasAsync: number;
}

/** The binding, or null when this Node does not offer it in the shape used here. */
function loadStreamWrap(): StreamWrapBinding | null {
  try {
    const binding = (process as unknown as { binding?: (name: string) => unknown }).binding;
    if (typeof binding !== 'function') return null;
    const b = binding.call(process, 'stream_wrap') as Partial<StreamWrapBinding> | undefined;
    if (
      typeof b?.WriteWrap !== 'function' ||
      !(b.streamBaseState instanceof Int32Array) ||
      typeof b.kLastWriteWasAsync !== 'number' ||
      typeof b.kReadBytesOrError !== 'number'
    ) {
      return null;
    }
    return b as StreamWrapBinding;
  } catch {
    return null;
  }
}

/** Capability detection, the same for every run in this thread (no per-run state). */
export const streamWrap = loadStreamWrap();

type OnRead = (this: unknown, arrayBuffer: unknown) => unknown;

/**
 * Hands a connected socket's reads to onRead straight from its handle. The socket must have
 * been opened with net's `onread` option and `buffer` (libuv reads into it, no Buffer per
 * read): Node's own read callback then only adds a timer refresh and checks before calling
 * `onread.callback`, about 5% of a closed loop's instructions per request. End of stream and
 * errors (no bytes) still go through Node's callback, which ends the socket as usual. Returns
 * false (nothing changed) when the handle does not look as expected.
 */
export function readDirectly(
  socket: net.Socket,
  buffer: Buffer,
  onRead: (bytes: number, buffer: Buffer) => void,
): boolean {
  const b = streamWrap;
  const handle = (socket as unknown as { _handle?: { onread?: unknown } | null })._handle;
  if (b === null || !handle || typeof handle.onread !== 'function') return false;
  const node = handle.onread as OnRead;
  const state = b.streamBaseState;
  const k = b.kReadBytesOrError;
  handle.onread = function (this: unknown, arrayBuffer: unknown): unknown {
    const n = state[k]!;
    // A read into the socket's own buffer comes without an ArrayBuffer.
    if (n > 0 && arrayBuffer === undefined) {
      onRead(n, buffer);
      return undefined;
    }
    return node.call(this, arrayBuffer);
  };
  return true;
}
