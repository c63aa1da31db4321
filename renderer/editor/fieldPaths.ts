import type { ScenarioDraft } from './draft.ts';
import { routePaths } from './routeDraft.ts';

/** Field paths the editor shows a message beside; anything else is listed under the form. */
export function fieldPaths(d: ScenarioDraft): Set<string> {
  const paths = new Set<string>(['name']);
  d.targets.forEach((t, i) => {
    paths.add(`targets.${i}.name`);
    // A list of requests stands in place of the URL and method.
    if (t.list) {
      paths.add(`targets.${i}.requests`);
      paths.add(`targets.${i}.order.seed`);
    } else {
      paths.add(`targets.${i}.url`);
      paths.add(`targets.${i}.method`);
    }
    paths.add(`targets.${i}.body.text`);
    paths.add(`targets.${i}.body.path`);
    paths.add(`targets.${i}.body.data`);
    paths.add(`targets.${i}.monitor`);
    for (const p of routePaths(i)) paths.add(p);
    t.headers.forEach((_h, j) => {
      paths.add(`targets.${i}.headers.${j}.name`);
      paths.add(`targets.${i}.headers.${j}.value`);
    });
  });
  for (const p of [
    'load.connections',
    'load.pipelining',
    'load.limit.seconds',
    'load.limit.count',
    'load.rate',
    'load.durationSeconds',
    'load.maxInFlight',
    'options.timeoutMs',
    'options.workers',
    'options.warmupSeconds',
    'options.sloMs',
    'options.sampleIntervalMs',
    'options.tls.caFile',
    'options.tls.caUpload',
    'options.tls.servername',
  ])
    paths.add(p);
  d.thresholds.forEach((_t, i) => paths.add(`options.thresholds.${i}.value`));
  if (d.staged) {
    paths.add('load.stages');
    d.stages.forEach((_s, i) => {
      paths.add(`load.stages.${i}.durationSeconds`);
      paths.add(`load.stages.${i}.target`);
    });
  }
  return paths;
}
