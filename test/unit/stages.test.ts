import { describe, expect, it } from 'vitest';
import {
  ArrivalSchedule,
  formatStagesText,
  parseStagesText,
  peakTarget,
  plannedArrivals,
  scaleStages,
  stageSpans,
  stagesSchema,
  stagesSeconds,
  targetAt,
  type Stage,
} from '../../shared/model/stages.ts';
import { parseWith } from '../../shared/model/validation.ts';

const rampHold: Stage[] = [
  { durationSeconds: 2, target: 200 },
  { durationSeconds: 2, target: 200 },
];

/** Every due time of a plan, in order. */
function dueTimes(stages: Stage[]): number[] {
  const schedule = new ArrivalSchedule(stages);
  const times: number[] = [];
  for (let k = 0; k < schedule.total; k++) times.push(schedule.timeOf(k));
  return times;
}

describe('stage plans: length, target and stage at a time', () => {
  const plan: Stage[] = [
    { durationSeconds: 30, target: 100 },
    { durationSeconds: 60, target: 1000 },
    { durationSeconds: 0, target: 400 },
    { durationSeconds: 30, target: 0 },
  ];

  it('sums the stages and finds the peak', () => {
    expect(stagesSeconds(plan)).toBe(120);
    expect(peakTarget(plan)).toBe(1000);
  });

  it('ramps linearly from 0 and from each stage to the next, a 0-second stage jumping', () => {
    expect(targetAt(plan, -1)).toBe(0);
    expect(targetAt(plan, 0)).toBe(0);
    expect(targetAt(plan, 15)).toBe(50);
    expect(targetAt(plan, 30)).toBe(100);
    expect(targetAt(plan, 60)).toBe(550);
    expect(targetAt(plan, 89.999)).toBeCloseTo(1000, 1);
    // The jump to 400 happens at 90 s; the ramp down starts from it.
    expect(targetAt(plan, 90)).toBe(400);
    expect(targetAt(plan, 105)).toBe(200);
    expect(targetAt(plan, 120)).toBe(0);
    expect(targetAt(plan, 500)).toBe(0);
  });

  it('spans each stage from its start to its end; a 0-second stage spans none', () => {
    expect(stageSpans(plan).map((s) => [s.startSeconds, s.endSeconds, s.from, s.to])).toEqual([
      [0, 30, 0, 100],
      [30, 90, 100, 1000],
      [90, 90, 1000, 400],
      [90, 120, 400, 0],
    ]);
  });

  it('integrates the rate: 0 to 200 req/s over 2 s then 2 s at 200 plans 600 requests', () => {
    expect(plannedArrivals(rampHold, 1)).toBe(50);
    expect(plannedArrivals(rampHold, 2)).toBe(200);
    expect(plannedArrivals(rampHold, 3)).toBe(400);
    expect(plannedArrivals(rampHold, 4)).toBe(600);
    expect(plannedArrivals(rampHold, 10)).toBe(600);
  });
});

describe('open-model arrivals follow the integrated rate', () => {
  it('a constant rate gives k/r, as the fixed-rate schedule does', () => {
    const times = dueTimes([
      { durationSeconds: 0, target: 50 },
      { durationSeconds: 2, target: 50 },
    ]);
    expect(times).toHaveLength(100);
    times.forEach((t, k) => expect(t).toBeCloseTo(k / 50, 9));
  });

  it('a ramp 0 to 200 over 2 s puts arrival k at sqrt(k/50) s, then 200 req/s', () => {
    const times = dueTimes(rampHold);
    expect(times).toHaveLength(600);
    for (const k of [0, 1, 50, 199]) expect(times[k]).toBeCloseTo(Math.sqrt(k / 50), 9);
    expect(times[200]).toBeCloseTo(2, 9);
    expect(times[300]).toBeCloseTo(2.5, 9);
    expect(times[599]).toBeCloseTo(2 + 399 / 200, 9);
    // Due times never go backwards, and each second holds what the ramp integrates to.
    for (let k = 1; k < times.length; k++) expect(times[k]!).toBeGreaterThan(times[k - 1]!);
    const perSecond = [0, 1, 2, 3].map((s) => times.filter((t) => t >= s && t < s + 1).length);
    expect(perSecond).toEqual([50, 150, 200, 200]);
  });

  it('a ramp down and a pause at 0 send nothing while the rate is 0', () => {
    const plan: Stage[] = [
      { durationSeconds: 0, target: 100 },
      { durationSeconds: 1, target: 0 },
      { durationSeconds: 1, target: 0 },
      { durationSeconds: 1, target: 100 },
    ];
    const times = dueTimes(plan);
    expect(times).toHaveLength(100);
    expect(times.filter((t) => t < 1)).toHaveLength(50);
    expect(times.filter((t) => t > 1e-9 + 1 && t < 2)).toHaveLength(0);
    // Arrival 75 on the way down: 100u - 50u² = 75 at u = 1 - sqrt(0.5)... solved exactly.
    expect(times[25]).toBeCloseTo(1 - Math.sqrt(0.5), 9);
    expect(new ArrivalSchedule(plan).timeOf(100)).toBe(Infinity);
  });
});

describe('stage plans split across workers', () => {
  it('a plan scaled by 1/n is a stage plan whose n copies add up to the original', () => {
    const plan: Stage[] = [
      { durationSeconds: 2, target: 200 },
      { durationSeconds: 3, target: 30 },
    ];
    const third = scaleStages(plan, 1 / 3);
    expect(parseWith(stagesSchema('rate'), third).ok).toBe(true);
    expect(stagesSeconds(third)).toBe(stagesSeconds(plan));
    for (const t of [0.5, 1, 2, 3.7, 5]) expect(3 * targetAt(third, t)).toBeCloseTo(targetAt(plan, t), 9);
    expect(3 * plannedArrivals(third, 5)).toBeCloseTo(plannedArrivals(plan, 5), 9);
  });
});

describe('stage plans as text', () => {
  it('reads duration:target lists and writes them back', () => {
    const parsed = parseStagesText('30s:100, 1m:1000,30s:0,1m30s:2.5,10:5');
    expect(parsed).toEqual({
      ok: true,
      stages: [
        { durationSeconds: 30, target: 100 },
        { durationSeconds: 60, target: 1000 },
        { durationSeconds: 30, target: 0 },
        { durationSeconds: 90, target: 2.5 },
        { durationSeconds: 10, target: 5 },
      ],
    });
    if (!parsed.ok) return;
    expect(formatStagesText(parsed.stages)).toBe('30s:100,1m0s:1000,30s:0,1m30s:2.5,10s:5');
    expect(parseStagesText(formatStagesText(parsed.stages))).toEqual(parsed);
  });

  it('names the stage that is not duration:target', () => {
    for (const [text, stage] of [
      ['30s:100,1m', 2],
      ['x:5', 1],
      ['30s:-5', 1],
      ['10s:100,,5s:0', 2],
      ['', 1],
    ] as const) {
      const parsed = parseStagesText(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(new RegExp(`^stage ${stage} `));
    }
  });
});

describe('stage plan validation', () => {
  const issues = (kind: 'connections' | 'rate', value: unknown) => {
    const r = parseWith(stagesSchema(kind), value);
    return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
  };

  it('names the stage and the field at fault', () => {
    expect(issues('connections', [{ durationSeconds: 5, target: 2.5 }])).toEqual([
      '0.target: stage target must be a whole number of connections',
    ]);
    expect(issues('connections', [{ durationSeconds: 5, target: 20_000 }])).toEqual([
      '0.target: stage target must be at most 10000 connections',
    ]);
    expect(
      issues('rate', [
        { durationSeconds: 5, target: 10 },
        { durationSeconds: -1, target: 5 },
      ]),
    ).toEqual(['1.durationSeconds: stage duration must be at least 0']);
    expect(issues('rate', [])).toEqual([': add at least one stage']);
  });

  it('refuses a plan that lasts no time or sends nothing', () => {
    expect(issues('rate', [{ durationSeconds: 0, target: 10 }])).toEqual([
      ': the stages last 0 s; between 0.1 s and 86400 s',
    ]);
    expect(issues('rate', [{ durationSeconds: 5, target: 0 }])).toEqual([
      ': the stages send nothing: raise a target above 0',
    ]);
    expect(issues('rate', [{ durationSeconds: 2, target: 1.5 }])).toEqual([]);
    expect(issues('connections', [{ durationSeconds: 5, target: 0 }])).toEqual([
      ': the stages send nothing: raise a target above 0',
    ]);
  });
});
