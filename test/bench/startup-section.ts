/**
 * The `startup` section (issue 24): what a run costs before and around its load, in CPU
 * seconds of the whole process tree (bash `times`, so worker threads and any child process
 * count), which a loaded machine inflates less than wall time. Rows, interleaved per round:
 *
 *   trebuchet run -n 1   the CLI as a user starts it (bin.js: its bundle, fresh; not the first
 *                        start after a change, which builds the bundle and is left out)
 *   ab -n 1 -c 1         the same one request from ab
 *   wrk -t1 -c1 -d1s     wrk's start-up: it runs for a whole second at least (-d has no finer
 *                        unit), so it targets a port that accepts and never answers, where
 *                        the second costs it nothing but its start and its wait
 *
 * The goal is Trebuchet's run -n 1 at most 0.25 CPU-s.
 */
import { createServer, type Socket } from 'node:net';
import { runMeasured } from '../helpers/reference-tools.ts';
import { CLI_BIN } from './generators.ts';
import { placed } from './pinning.ts';
import { median } from './report.ts';
import { log, pause, type Bench } from './sections.ts';

/** Issue 24's goal for `trebuchet run -n 1`, in CPU seconds. */
export const STARTUP_GOAL_CPU_S = 0.25;

interface StartupRow {
  label: string;
  command: string;
  args: string[];
  cpu: number[];
}

/** A listener that accepts and never answers (wrk's one-second floor costs it only a wait there). */
export async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

const spread = (xs: readonly number[]): string =>
  xs.length === 0 ? 'n/a' : `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

export async function startupSection(b: Bench, rounds = b.quick ? 3 : 5): Promise<string> {
  const url = `${b.nginx.httpUrl}test.html`;
  const silent = await silentServer();
  const rows: StartupRow[] = [
    {
      label: 'trebuchet run -n 1',
      command: process.execPath,
      args: [CLI_BIN, 'run', '-n', '1', '-q', url],
      cpu: [],
    },
    { label: 'ab -n 1 -c 1', command: 'ab', args: ['-q', '-n', '1', '-c', '1', url], cpu: [] },
    {
      label: 'wrk -t1 -c1 -d1s (a silent port)',
      command: 'wrk',
      args: ['-t1', '-c1', '-d1s', silent.url],
      cpu: [],
    },
  ];
  log(`startup, ${rounds} rounds (CPU-s of each process tree):`);
  try {
    // One start first, not counted: it builds the CLI's bundle if a source changed since.
    await runMeasured(...placed(rows[0]!.command, rows[0]!.args), 120_000);
    for (let round = 0; round < rounds; round++) {
      for (const r of rows) {
        const m = await runMeasured(...placed(r.command, r.args), 60_000);
        // wrk exits 0 with its timeouts counted; any other failure leaves the row short.
        if (m.exitCode !== 0) log(`  ${r.label}: exited ${m.exitCode}: ${m.stderr.trim().slice(0, 200)}`);
        else r.cpu.push(m.cpuSeconds);
        log(`  ${r.label}: ${m.cpuSeconds.toFixed(2)} CPU-s, ${m.wallSeconds.toFixed(2)} s`);
        await pause(200);
      }
    }
  } finally {
    await silent.close();
  }
  const trebuchet = median(rows[0]!.cpu);
  return [
    `### Start-up: one request, CPU seconds of the process tree (median of ${rounds}, min–max)`,
    '',
    '| command | CPU s (median) | min–max |',
    '|---|---:|---:|',
    ...rows.map((r) => `| ${r.label} | ${median(r.cpu).toFixed(2)} | ${spread(r.cpu)} |`),
    '',
    `Goal: \`trebuchet run -n 1\` at most ${STARTUP_GOAL_CPU_S} CPU-s: ${
      Number.isFinite(trebuchet)
        ? trebuchet <= STARTUP_GOAL_CPU_S
          ? 'met'
          : `not met (${trebuchet.toFixed(2)})`
        : 'n/a'
    }.`,
    '',
  ].join('\n');
}
