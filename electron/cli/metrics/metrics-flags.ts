/**
 * `--out KIND=URL` (repeatable) and `--metrics-listen HOST:PORT`, the same for `trebuchet run`,
 * `capacity` and `serve` (each declares them in its own flag table): the flags' text read into
 * where live metrics go (shared/metrics/outs.ts), every error naming its flag; and the
 * metrics hub a command's job runs with (electron/metrics/hub.ts, loaded only when asked).
 */
import {
  MAX_METRICS_PUSH,
  NO_METRICS_OUT,
  parseListenAddress,
  parseMetricsPush,
  sendsMetrics,
  type MetricsOut,
} from '../../../shared/metrics/outs.ts';
import { describeIssues } from '../../../shared/model/validation.ts';
import type { MetricsHub } from '../../metrics/hub.ts';
import { CliInputError } from '../values.ts';

/** The two flags' values as node:util's parseArgs gives them. */
export interface MetricsFlagValues {
  out?: string[];
  'metrics-listen'?: string;
}

/** Where the flags send live metrics; NO_METRICS_OUT when neither was given. */
export function metricsOutFromFlags(v: MetricsFlagValues): MetricsOut {
  const texts = v.out ?? [];
  if (texts.length === 0 && v['metrics-listen'] === undefined) return NO_METRICS_OUT;
  if (texts.length > MAX_METRICS_PUSH) {
    throw new CliInputError(
      '--out',
      `give at most ${MAX_METRICS_PUSH} metrics endpoints (${texts.length} given)`,
    );
  }
  const push = texts.map((text) => {
    const parsed = parseMetricsPush(text);
    if (!parsed.ok) throw new CliInputError('--out', describeIssues(parsed.issues));
    return parsed.value;
  });
  const seen = new Set<string>();
  for (const p of push) {
    const key = `${p.kind}=${p.url}`;
    if (seen.has(key)) throw new CliInputError('--out', `${key} is given twice`);
    seen.add(key);
  }
  let listen: MetricsOut['listen'] = null;
  if (v['metrics-listen'] !== undefined) {
    const parsed = parseListenAddress(v['metrics-listen']);
    if (!parsed.ok) throw new CliInputError('--metrics-listen', describeIssues(parsed.issues));
    listen = parsed.value;
  }
  return { push, listen };
}

/**
 * The hub a command's job sends its metrics through, listening already (its address said on
 * stderr); null when no metrics go out. An address that cannot be listened on is the flag's
 * error: nothing has run yet.
 */
export async function openMetricsHub(
  out: MetricsOut,
  opts: { appVersion: string; say: (line: string) => void },
): Promise<MetricsHub | null> {
  if (!sendsMetrics(out)) return null;
  const { MetricsHub } = await import('../../metrics/hub.ts');
  const hub = new MetricsHub({ appVersion: opts.appVersion });
  await hub.configure(out);
  if (hub.listenProblem !== null) {
    await hub.close();
    throw new CliInputError('--metrics-listen', `cannot listen: ${hub.listenProblem}`);
  }
  if (hub.scrapeUrl !== null) opts.say(`serving live metrics at ${hub.scrapeUrl}`);
  return hub;
}
