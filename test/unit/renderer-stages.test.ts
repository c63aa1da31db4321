import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import {
  checkDraft,
  defaultDraft,
  defaultStages,
  newStage,
  stagesFromDraft,
} from '../../renderer/editor/draft.ts';
import { stagePreview } from '../../renderer/editor/stagePreview.ts';
import { liveCharts, pointsOf } from '../../renderer/jobs/liveSeries.ts';
import { draftFromScenario } from '../../renderer/views/Presets/scenarioDraft.ts';
import { sampleFixture } from '../helpers/run-result.ts';

describe('the stage table in the editor', () => {
  it('starts from ramp up, hold, ramp down at the model level, and sends the stages to the schema', () => {
    const d = { ...defaultDraft(), model: 'open' as const, staged: true, stages: defaultStages('100') };
    d.targets[0]!.url = 'http://127.0.0.1:8080/';
    expect(d.stages.map((s) => [s.seconds, s.target])).toEqual([
      ['5', '100'],
      ['10', '100'],
      ['5', '0'],
    ]);
    d.stages[1]!.seconds = '1m';
    const check = checkDraft(d);
    expect(check.ok && check.scenario.load.stages).toEqual([
      { durationSeconds: 5, target: 100 },
      { durationSeconds: 60, target: 100 },
      { durationSeconds: 5, target: 0 },
    ]);
    // Switched off, the table is kept but the load is a fixed rate again.
    const off = checkDraft({ ...d, staged: false });
    expect(off.ok && off.scenario.load.stages).toBeUndefined();
    // A typo comes back as the schema's message on its row.
    d.stages[2]!.target = 'x';
    const bad = checkDraft(d);
    expect(bad.issues.get('load.stages.2.target')).toBe('stage target must be a number');
    // A new row holds the last one's duration and target.
    expect(newStage(d.stages[0])).toMatchObject({ seconds: '5', target: '100' });
  });

  it('opens a saved staged scenario with its stages', () => {
    const scenario = scenarioSchema.parse({
      targets: [{ url: 'http://127.0.0.1:1/' }],
      load: { model: 'closed', stages: [{ durationSeconds: 3, target: 7 }] },
    });
    const d = draftFromScenario(scenario);
    expect(d.staged).toBe(true);
    expect(d.stages.map((s) => [s.seconds, s.target])).toEqual([['3', '7']]);
    expect(
      draftFromScenario(scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:1/' }] })).staged,
    ).toBe(false);
  });

  it('previews the curve through 0 and each stage end, skipping rows that do not read', () => {
    const rows = defaultStages('100');
    rows.push({ key: 'x', seconds: 'soon', target: '5' });
    expect(stagesFromDraft(rows)).toHaveLength(3);
    const p = stagePreview(stagesFromDraft(rows), { width: 206, height: 106 });
    // 3 px padding: x spans 3..203 over 20 s, y spans 103 (0) to 3 (the peak, 100).
    expect(p).toEqual({
      line: 'M3,103 L53,3 L153,3 L203,103',
      area: 'M3,103 L53,3 L153,3 L203,103 L203,103 Z',
      seconds: 20,
      peak: 100,
    });
    expect(stagePreview([{ durationSeconds: 5, target: 0 }], { width: 10, height: 10 })).toBeNull();
  });
});

describe('live charts of a staged run', () => {
  const sample = sampleFixture({
    elapsedSeconds: 2,
    intervalSeconds: 1,
    requestsPerSecond: 140,
    connections: 3,
  });

  it('draws the open model target rate beside the throughput', () => {
    const charts = liveCharts({
      model: 'open',
      rate: 1,
      durationSeconds: 1,
      maxInFlight: 10,
      stages: [{ durationSeconds: 2, target: 200 }],
    });
    const throughput = charts.find((c) => c.id === 'throughput')!;
    // The window 1-2 s of a ramp 0 to 200 over 2 s plans 150 requests: 150 req/s.
    expect(pointsOf(throughput, sample).map((p) => p.y)).toEqual([140, 150]);
    expect(charts.map((c) => c.id)).toEqual(['throughput', 'latency', 'status']);
  });

  it('adds a connections chart for the closed model: carrying load beside the target', () => {
    const charts = liveCharts({
      model: 'closed',
      connections: 1,
      pipelining: 1,
      limit: { kind: 'duration', seconds: 1 },
      rate: null,
      stages: [{ durationSeconds: 4, target: 8 }],
    });
    expect(charts.map((c) => c.id)).toEqual(['throughput', 'connections', 'latency', 'status']);
    expect(pointsOf(charts[1]!, sample).map((p) => p.y)).toEqual([3, 4]);
    expect(liveCharts(null).map((c) => c.id)).toEqual(['throughput', 'latency', 'status']);
  });
});
