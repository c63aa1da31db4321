import { afterAll, afterEach } from 'vitest';

/** A server (close) or nginx (stop) or test certificates (remove) a test started. */
export type Disposable = { close(): unknown } | { stop(): unknown } | { remove(): unknown };

async function dispose(r: Disposable): Promise<void> {
  if ('close' in r) await r.close();
  else if ('stop' in r) await r.stop();
  else await r.remove();
}

function registry(hook: (fn: () => Promise<void>) => void): <T extends Disposable>(resource: T) => T {
  const open: Disposable[] = [];
  hook(async () => {
    const outcomes = await Promise.allSettled(open.splice(0).reverse().map(dispose));
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
  });
  return (resource) => {
    open.push(resource);
    return resource;
  };
}

/**
 * Returns a function that hands a resource back unchanged and ends it after the current test,
 * whether the test passed, failed or timed out (call at the top of a file or describe block).
 * A try/finally in the test body is not enough: when vitest abandons a timed-out test, the
 * awaited load never returns and the finally block never runs.
 */
export function endAfterEach(): <T extends Disposable>(resource: T) => T {
  return registry(afterEach);
}

/** As endAfterEach, for resources a beforeAll starts: ended once every test of the block ran. */
export function endAfterAll(): <T extends Disposable>(resource: T) => T {
  return registry(afterAll);
}
