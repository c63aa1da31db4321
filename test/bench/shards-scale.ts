/**
 * What the coordinator costs per tick per link (issue 35): `node test/bench/shards-scale.ts
 * [--links 10,100] [--ticks 20]`. For each link count, scripted process links
 * (test/helpers/scripted-shard.js: real processes, their windows a busy second's latencies, no
 * load sent) run for the ticks given, and this thread's CPU between its first Sample and its
 * last whole one (every byte read from the pipes, each line parsed and checked, each place
 * merged, each Sample made; the processes' start-up and the final merge left out) over the
 * ticks and the links is the cost per tick per link. Markdown on stdout; each count's figure is
 * also a ratio to the smallest count's, measured in the same run (how the cost grows with the
 * links).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { shardedTarget } from '../../electron/jobs/sharded-target.ts';
import { messageLine } from '../../electron/engine/shards/messages.ts';
import { scriptedShards } from '../helpers/shard-script.ts';

const { values } = parseArgs({ options: { links: { type: 'string' }, ticks: { type: 'string' } } });
const counts = (values.links ?? '10,100').split(',').map(Number);
const ticks = Number(values.ticks ?? '20');
const dir = mkdtempSync(join(tmpdir(), 'trebuchet-shards-bench-'));
const scriptFile = join(dir, 'script.json');
const script = scriptedShards(ticks + 2);
writeFileSync(scriptFile, JSON.stringify(script.script));

/** This thread's CPU-seconds from the first Sample to the last whole one, and the places between. */
async function tickCpu(links: number, seconds: number): Promise<{ cpu: number; places: number }> {
  const scenario = scenarioSchema.parse({
    targets: [{ url: 'http://127.0.0.1:9/', monitor: { kind: 'off' } }],
    load: { model: 'closed', connections: links, limit: { kind: 'duration', seconds } },
  });
  const command = [
    process.execPath,
    resolve(import.meta.dirname, '../helpers/scripted-shard.js'),
    scriptFile,
  ];
  const target = shardedTarget(
    { count: links, readyTimeoutSeconds: 1800, kubernetes: null },
    // A hundred processes on a busy machine may stall for seconds: what is measured is the merge.
    { processCommand: command, processSilenceMs: 1_800_000 },
  );
  const marks: { seq: number; cpu: number }[] = [];
  const run = target(
    scenario,
    0,
    {
      started: () => undefined,
      sample: (s) => {
        const { user, system } = process.threadCpuUsage();
        if (!s.final) marks.push({ seq: s.seq, cpu: (user + system) / 1e6 });
      },
      reading: () => undefined,
      machine: () => undefined,
    },
    { runId: `bench-${links}-${seconds}`, appVersion: '0.0.0-bench' },
  );
  const result = await run.done;
  if (result?.status !== 'completed')
    throw new Error(`a run of ${links} links: ${result?.error?.message ?? 'no result'}`);
  const [first, last] = [marks[0]!, marks.at(-1)!];
  return { cpu: last.cpu - first.cpu, places: last.seq - first.seq };
}

// Once first, unmeasured: the first run pays for loading and compiling the coordinator's code.
await tickCpu(counts[0]!, 3);
const rows: { links: number; msPerTickPerLink: number }[] = [];
for (const links of counts) {
  const { cpu, places } = await tickCpu(links, ticks + 2);
  const ms = (cpu * 1000) / (places * links);
  rows.push({ links, msPerTickPerLink: ms });
  process.stderr.write(
    `${links} links: ${cpu.toFixed(3)} CPU-s over ${places} ticks -> ${ms.toFixed(3)} ms a tick a link\n`,
  );
}
rmSync(dir, { recursive: true, force: true });

const windowBytes = messageLine({
  type: 'window',
  index: 1,
  at: Date.now(),
  endsWarmup: false,
  window: script.script.kinds[1]!.window as never,
}).length;
const reference = rows[0]!.msPerTickPerLink;
const out = [
  `Load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')}; a window line: ${windowBytes} bytes.`,
  '',
  '| links | CPU per tick per link | ratio to the first | CPU per 1 s tick |',
  '| ----: | --------------------: | -----------------: | ---------------: |',
  ...rows.map(
    (r) =>
      `| ${r.links} | ${r.msPerTickPerLink.toFixed(3)} ms | ${(r.msPerTickPerLink / reference).toFixed(2)} | ${(r.msPerTickPerLink * r.links).toFixed(0)} ms (${((r.msPerTickPerLink * r.links) / 10).toFixed(1)} %) |`,
  ),
];
process.stdout.write(`${out.join('\n')}\n`);
process.exit(0);
