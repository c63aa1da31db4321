import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PRESET_FILES, builtInPresets } from '../../electron/stores/built-in-presets.ts';
import { expandPlan } from '../../shared/comparison/cells.ts';
import { cellCount, type ComparisonPlan } from '../../shared/comparison/plan.ts';
import { parsePresetFile, type Preset } from '../../shared/records/presets.ts';
import { describeIssues } from '../../shared/model/validation.ts';

const DIR = path.join(import.meta.dirname, '../../resources/presets');
const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json'));

function planOf(id: string): ComparisonPlan {
  const p = builtInPresets().find((x) => x.id === id);
  if (!p || p.kind !== 'comparison') throw new Error(`no built-in comparison ${id}`);
  return p.plan;
}

describe('built-in presets', () => {
  it('are all valid presets of the current version, and all shipped', () => {
    expect(files).toHaveLength(6);
    for (const f of files) {
      const r = parsePresetFile(JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')), {
        newId: () => 'unused',
      });
      expect(r.ok, r.ok ? f : `${f}: ${describeIssues(r.issues)}`).toBe(true);
      expect(r.ok && r.migratedFrom).toBeNull();
    }
    // Every file in the folder is imported by the loader (none forgotten).
    expect(BUILT_IN_PRESET_FILES).toHaveLength(files.length);
    const presets: Preset[] = builtInPresets();
    expect(new Set(presets.map((p) => p.id)).size).toBe(files.length);
    expect(
      presets.every((p) => p.id.startsWith('builtin-') && p.description.includes('placeholder URLs')),
    ).toBe(true);
  });

  it('point at placeholders that look like ones and reach no server: one host:port per server in every preset', () => {
    const seen = new Map<string, string>();
    for (const p of builtInPresets()) {
      const targets =
        p.kind === 'comparison'
          ? p.plan.targets.flatMap((t) => Object.values(t.urls).map((u) => [t.name, u] as const))
          : (p.kind === 'run' ? p.scenario : p.plan).targets.map(
              (t) => [(t.name ?? '').split(' · ')[0]!, t.url] as const,
            );
      for (const [server, u] of targets) {
        const url = new URL(u);
        // .example is reserved (RFC 2606): it never resolves, so an untouched preset loads nothing.
        expect(url.hostname, `${p.id}: ${u}`).toMatch(/^[a-z0-9-]+\.example$/);
        const key = `${server} ${url.protocol}`;
        // Apache was 8081 in one preset and 8080 in another.
        expect(seen.get(key) ?? url.host, `${p.id}: ${server} over ${url.protocol}`).toBe(url.host);
        seen.set(key, url.host);
      }
    }
    expect(seen.get('Apache http:')).toBe('apache.example:8081');
    expect(seen.get('nginx https:')).toBe('nginx.example:4432');
  });

  it('name their plans without a load, so a run of an edited preset is not titled by the old one', () => {
    for (const p of builtInPresets()) {
      if (p.kind === 'run') continue;
      expect(p.plan.name, p.id).not.toMatch(
        /\d+\s*(req\/s|s\b|ms\b)|\d+\/\d+|-[nc] \d|\d+ (threads|concurrent|requests)/,
      );
    }
  });

  it('seed 000: vegeta rate 100/1000/10000 for 5 s, http and https', () => {
    const plan = planOf('builtin-seed-000-vegeta-rate');
    expect(plan.load).toMatchObject({ model: 'open', durationSeconds: 5 });
    expect(plan.levels).toEqual([100, 1000, 10000]);
    expect(plan.protocols).toEqual(['http', 'https']);
    expect(plan.targets.map((t) => t.name)).toEqual(['Apache', 'nginx', 'H2O']);
    expect(
      plan.targets.every((t) => t.urls.http!.endsWith('/test.html') && t.urls.https!.startsWith('https://')),
    ).toBe(true);
    expect(cellCount(plan)).toBe(3 * 3 * 2);
    expect(expandPlan(plan).find((c) => c.coordinates.level === 1000)!.scenario.load).toMatchObject({
      model: 'open',
      rate: 1000,
    });
  });

  it('seed 001: ab -n 50000 -c 500 on an 8 KB image, keep-alive off', () => {
    const plan = planOf('builtin-seed-001-ab-8kb-image');
    expect(plan.load).toEqual({
      model: 'closed',
      connections: 500,
      pipelining: 1,
      limit: { kind: 'requests', count: 50000 },
      rate: null,
    });
    expect(plan.levels).toEqual([500]);
    expect(plan.options.keepAlive).toBe(false);
    expect(plan.targets.map((t) => t.name)).toEqual(['Apache', 'nginx', 'LiteSpeed']);
    expect(plan.targets.every((t) => t.urls.http!.endsWith('/test.png'))).toBe(true);
  });

  it('seed 002: ab -n 30000 -c 30 repeated 4 times', () => {
    const plan = planOf('builtin-seed-002-ab-repeated');
    expect(plan.load).toMatchObject({ model: 'closed', limit: { kind: 'requests', count: 30000 } });
    expect(plan.levels).toEqual([30]);
    expect(plan.repetitions).toBe(4);
    expect(plan.options.keepAlive).toBe(false);
    expect(cellCount(plan)).toBe(8);
  });

  it('seed 003: JMeter 5/30/500 threads for 60 s, 1 KB query string, 300 ms SLO', () => {
    const plan = planOf('builtin-seed-003-jmeter-threads');
    expect(plan.load).toMatchObject({ model: 'closed', limit: { kind: 'duration', seconds: 60 } });
    expect(plan.levels).toEqual([5, 30, 500]);
    expect(plan.options.sloMs).toBe(300);
    expect(plan.options.keepAlive).toBe(true);
    for (const t of plan.targets) expect(new URL(t.urls.http!).search.slice(1)).toHaveLength(1024);
  });

  it('seed 004: 3 KB file at 10/100/1000 concurrent', () => {
    const plan = planOf('builtin-seed-004-3kb-concurrency');
    expect(plan.levels).toEqual([10, 100, 1000]);
    expect(plan.load).toMatchObject({ model: 'closed', limit: { kind: 'requests', count: 10000 } });
    expect(plan.options.keepAlive).toBe(false);
    expect(plan.targets.map((t) => t.name)).toEqual(['Apache (prefork)', 'Apache (worker)', 'lighttpd']);
    expect(plan.targets.every((t) => t.urls.http!.endsWith('/3kb.html'))).toBe(true);
  });

  it("open with the layout and matrix columns of their article's tool", () => {
    expect(planOf('builtin-seed-000-vegeta-rate').report).toEqual({
      format: 'vegeta',
      columns: [
        'requests',
        'rps',
        'timeTaken',
        'latencyMean',
        'p50',
        'p95',
        'p99',
        'latencyMax',
        'success',
        'errors',
        'late',
        'dropped',
        // "the load average rose less" as a number: the CPU each server spent for the same work.
        'serverCpuMean',
        'serverCpuPer10k',
        'runs',
        'verdict',
      ],
    });
    expect(planOf('builtin-seed-001-ab-8kb-image').report).toMatchObject({ format: 'ab' });
    expect(planOf('builtin-seed-001-ab-8kb-image').report!.columns).toEqual(
      expect.arrayContaining(['connectMean', 'processingMean', 'waitingMean', 'p50', 'p99', 'latencyMax']),
    );
    expect(planOf('builtin-seed-002-ab-repeated').report).toEqual({
      format: 'ab',
      columns: [
        'runs',
        'rps',
        'rpsStdev',
        'rpsMin',
        'rpsMax',
        'timeTaken',
        'timePerRequest',
        'timePerRequestAcross',
        'failed',
        // The article's advice: watch CPU and memory on every element of the chain.
        'serverCpuMean',
        'serverCpuPer10k',
        'serverRssMax',
        'verdict',
      ],
    });
    // Seed 003's table: mean and median latency, throughput, error rate (with the 300 ms rule).
    expect(planOf('builtin-seed-003-jmeter-threads').report).toEqual({
      format: 'jmeter',
      columns: ['latencyMean', 'p50', 'rps', 'errorRate', 'sloFailures', 'runs', 'verdict'],
    });
    // Seed 004: Connect / Processing / Waiting means per server and level.
    expect(planOf('builtin-seed-004-3kb-concurrency').report).toMatchObject({
      format: 'ab',
      columns: [
        'rps',
        'connectMean',
        'processingMean',
        'waitingMean',
        'timeTaken',
        'timePerRequest',
        'failed',
        'verdict',
      ],
    });
  });
});
