import { createRequire } from 'node:module';
import type { Load, RunOptions } from '../../shared/model/scenario.ts';
import type { EngineId } from './result.ts';
import { NATIVE_ENGINE_VERSION } from './native/version.ts';
import type { LoadGenerator, RunSpec } from './types.ts';

/** The chosen engine cannot run this scenario (or is not built); the run fails with this message. */
export class EngineUnavailableError extends Error {
  override readonly name = 'EngineUnavailableError';
}

const require = createRequire(import.meta.url);

function packageVersion(name: string): string {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Why autocannon cannot run this load, or null when it can. */
function autocannonRefusal(load: Load, options: RunOptions): string | null {
  if (options.protocol === 'h2') return 'autocannon speaks HTTP/1.1 only; HTTP/2 needs the native engine';
  if (load.model === 'open')
    return 'autocannon runs the closed model only; a constant-rate (open) run needs the native engine';
  if (load.stages)
    return 'autocannon keeps a fixed number of connections; a staged load (connections that ramp) needs the native engine';
  if (load.rate !== null && load.rate < 1)
    return "autocannon's rate limiter cannot send fewer than 1 request per second; a lower rate needs the native engine";
  if (!options.keepAlive) {
    return 'autocannon cannot open a new connection per request (its reconnectRate option drops every N-th response from its statistics instead of measuring it); keep-alive off needs the native engine';
  }
  return null;
}

/**
 * The engine 'auto' and explicit choices resolve to, before anything is loaded. 'auto' is
 * the native load generator: it runs every model and protocol, and for closed-model HTTP/1.1 it
 * sends 2 to 3 times more requests per CPU-second than autocannon on the same machine
 * (figures in docs/benchmarks.md). autocannon stays selectable, and serves as a cross-check.
 */
export function plannedEngine(options: RunOptions): EngineId {
  const name = options.engine === 'auto' ? 'native' : options.engine;
  return { name, version: name === 'autocannon' ? packageVersion('autocannon') : NATIVE_ENGINE_VERSION };
}

/**
 * The load generator for a spec, loaded on demand (each engine is only imported when it runs).
 * Throws EngineUnavailableError when the chosen engine cannot run the spec.
 */
export async function selectLoadGenerator(spec: RunSpec): Promise<LoadGenerator> {
  const { load, options } = spec;
  const engine = plannedEngine(options).name;
  if (engine === 'autocannon') {
    const refusal = autocannonRefusal(load, options);
    if (refusal !== null)
      throw new EngineUnavailableError(`engine autocannon cannot run this scenario: ${refusal}.`);
    const { AutocannonLoadGenerator } = await import('./autocannon/load-generator.ts');
    return new AutocannonLoadGenerator();
  }
  const { nativeLoadGenerator } = await import('./native/load-generator.ts');
  return nativeLoadGenerator;
}
