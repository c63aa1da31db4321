import type { ClassifiedError } from '../errors.ts';

/** A failed request as the report shows it: a kind and the first message seen. */
export type Failure = ClassifiedError;

export { classifyError } from '../errors.ts';

export const timeoutFailure = (ms: number): Failure => ({
  kind: 'timeout',
  message: `no complete response within ${ms} ms`,
});

export const closedFailure = (): Failure => ({
  kind: 'reset',
  message: 'connection closed by the server before the response was complete',
});
