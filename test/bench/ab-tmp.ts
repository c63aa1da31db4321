// Scratch A/B (not committed): cold https/http open runs alternated between trees, pinned.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNginx } from '../helpers/nginx.ts';
import { place, PINNED } from './pinning.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { engineOutcome } from './engine-outcome.ts';

const [trees, rounds, rate, secs, scheme, extra] = [
  process.argv[2]!.split(','), Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5]), process.argv[6] ?? 'https', process.argv[7] ?? '',
];
const nginx = await startNginx({ https: true });
place(PINNED, nginx.pid);
const url = `${scheme === 'https' ? nginx.httpsUrl : nginx.httpUrl}test.html`;
const dir = mkdtempSync(join(tmpdir(), 'ab-'));
const input = join(dir, 's.json');
writeFileSync(input, JSON.stringify({ name: 'ab', targets: [{ url }], load: { model: 'open', rate, durationSeconds: secs, maxInFlight: 1000 }, options: { warmupSeconds: 0, tls: { verify: false }, ...(process.env.IVL ? { sampleIntervalMs: Number(process.env.IVL) } : {}) } }));
for (let r = 0; r < rounds; r++) {
  for (const t of trees) {
    const out = join(dir, 'r.json');
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    const args = ['-c', '1', process.execPath, ...(extra ? extra.split(' ') : []), `${t}/electron/cli/bin.js`, 'run', '--scenario', input, '--json', out, '-q'];
    const p = await new Promise<{ stdout: string; stderr: string }>((res) => {
      const c = spawn('taskset', args);
      let stdout = '', stderr = '';
      c.stdout.on('data', (d) => (stdout += d));
      c.stderr.on('data', (d) => (stderr += d));
      const done = new Set<string>();
      const timer = process.env.NICE ? setInterval(() => {
        try {
          const tasks = readdirSync(`/proc/${c.pid}/task`);
          const comm = (t: string) => { try { return readFileSync(`/proc/${c.pid}/task/${t}/comm`, 'utf8').trim(); } catch { return ''; } };
          if (!tasks.some((t) => comm(t).startsWith('engine'))) return;
          for (const t of tasks) if (!done.has(t) && !comm(t).startsWith('engine') && (!process.env.V8ONLY || comm(t).startsWith('V8'))) { done.add(t); spawnSync('renice', ['-n', process.env.NICE!, '-p', t]); }
        } catch {}
      }, 20) : undefined;
      c.on('close', () => { clearInterval(timer); res({ stdout, stderr }); });
    });
    const deopts = (p.stdout.match(/bailout \(kind: deopt-(eager|lazy|soft)/g) ?? []).length;
    const o = engineOutcome(runResultSchema.parse(JSON.parse(readFileSync(out, 'utf8'))));
    console.log(`${t.split('/').pop()} r${r} load ${load} sent ${o.sent} late ${o.late} (${((100 * (o.late ?? 0)) / o.sent).toFixed(2)}%) sendLateP99 ${o.sendLateP99?.toFixed(2)} p99 ${o.p99?.toFixed(2)} tickP99 ${o.tickPauseP99?.toFixed(3)} deopts ${deopts}`);
    if (process.env.SAMPLES) { const rr = JSON.parse(readFileSync(out, 'utf8')); console.log('   ' + rr.samples.map((x: any) => `${x.late ?? 0}/${x.inFlight}/${Math.round(x.cpuPercent ?? -1)}/${(x.sendLatenessP99 ?? 0).toFixed(1)}`).join(' ')); console.log('   ' + p.stderr.trim().split('\n').slice(-3).join(' | ')); }
    if (extra.includes('trace-gc')) writeFileSync('/tmp/gcout.txt', p.stdout); console.log(p.stdout.split('\n').filter((l) => /Mark|ms: Scav.*[1-9]\d*\.\d+ \/ /.test(l)).map((l)=>'   '+l.slice(0,160)).join('\n'));
    if (extra.includes('trace-deopt')) writeFileSync(`/work/prof/deopt-${t.split('/').pop()}-${r}.txt`, p.stdout);
  }
}
await nginx.stop();
