// Scratch (not committed): per-thread CPU of one CLI run by phase (start / run / end), pinned.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNginx } from '../helpers/nginx.ts';
import { place, PINNED } from './pinning.ts';

const [model, n, secs, scheme] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]), process.argv[5] ?? 'http'];
const nginx = await startNginx({ https: true });
place(PINNED, nginx.pid);
const url = `${scheme === 'https' ? nginx.httpsUrl : nginx.httpUrl}test.html`;
const dir = mkdtempSync(join(tmpdir(), 'th-'));
const input = join(dir, 's.json');
const out = join(dir, 'r.json');
const load = model === 'open' ? { model: 'open', rate: n, durationSeconds: secs, maxInFlight: 1000 } : { model: 'closed', connections: n, durationSeconds: secs };
writeFileSync(input, JSON.stringify({ name: 'th', targets: [{ url }], load, options: { warmupSeconds: 0, tls: { verify: false } } }));
const t0 = Date.now();
const c = spawn('taskset', ['-c', '1', process.execPath, `${process.cwd()}/electron/cli/bin.js`, 'run', '--scenario', input, '--json', out, '-q']);
const last = new Map<string, { name: string; ns: number }>();
const series: { at: number; ns: Map<string, number> }[] = [];
const kind = (name: string) => (name.startsWith('engine') ? name : name === 'node' || name === 'MainThread' ? 'main' : name.startsWith('V8') || name.startsWith('DelayedTask') ? 'V8' : name.startsWith('libuv') ? 'libuv' : 'other:' + name);
const poll = () => {
  let pid: number | undefined;
  try {
    for (const t of readdirSync('/proc/' + c.pid + '/task')) {
      const comm = readFileSync(`/proc/${c.pid}/task/${t}/comm`, 'utf8').trim();
      if (comm === 'taskset') return;
      const ns = Number(readFileSync(`/proc/${c.pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
      last.set(t, { name: Number(t) === c.pid ? 'main' : kind(comm), ns });
    }
  } catch {}
  const agg = new Map<string, number>();
  for (const v of last.values()) agg.set(v.name, (agg.get(v.name) ?? 0) + v.ns);
  series.push({ at: Date.now(), ns: agg });
  void pid;
};
const timer = setInterval(poll, 10);
await new Promise((r) => c.on('close', r));
clearInterval(timer);
const r = JSON.parse(readFileSync(out, 'utf8'));
const startAt = Date.parse(r.startedAt), endAt = Date.parse(r.endedAt);
const at = (t: number) => series.filter((s) => s.at <= t).at(-1)?.ns ?? new Map();
const end = series.at(-1)!.ns;
const names = [...end.keys()].sort();
const ms = (m: Map<string, number>, k: string) => (m.get(k) ?? 0) / 1e6;
console.log(`${model} ${n} ${secs}s ${scheme}: requests ${r.requests.total}, wall ${Date.now() - t0} ms`);
for (const k of names) {
  const a = ms(at(startAt), k), b = ms(at(endAt), k), e = ms(end, k);
  console.log(`  ${k.padEnd(14)} start ${a.toFixed(0).padStart(5)}  run ${(b - a).toFixed(0).padStart(5)}  end ${(e - b).toFixed(0).padStart(5)}  total ${e.toFixed(0).padStart(5)}`);
}
const tot = (m: Map<string, number>) => [...m.values()].reduce((x, y) => x + y, 0) / 1e6;
console.log(`  all            start ${tot(at(startAt)).toFixed(0).padStart(5)}  run ${(tot(at(endAt)) - tot(at(startAt))).toFixed(0).padStart(5)}  end ${(tot(end) - tot(at(endAt))).toFixed(0).padStart(5)}  total ${tot(end).toFixed(0).padStart(5)}`);
await nginx.stop();
