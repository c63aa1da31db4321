import type { EngineChoice, Protocol } from '../../shared/model/scenario.ts';

/** The protocol picker's choices. */
export const PROTOCOLS: readonly { value: Protocol; label: string }[] = [
  { value: 'http1.1', label: 'HTTP/1.1' },
  { value: 'h2', label: 'HTTP/2' },
];

/**
 * The engine picker's choices, saying what each one runs: the native engine speaks HTTP/1.1
 * and HTTP/2 on its own raw sockets, and auto picks it for every load.
 */
export const ENGINES: readonly { value: EngineChoice; label: string }[] = [
  { value: 'auto', label: 'Auto (native)' },
  { value: 'autocannon', label: 'autocannon (closed model, HTTP/1.1)' },
  { value: 'native', label: 'Native (raw sockets, HTTP/1.1 and HTTP/2)' },
];
