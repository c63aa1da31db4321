import { describe, expect, it } from 'vitest';
import { jobStartSchema } from '../../shared/contract/jobs.ts';
import { defaultShardsDraft, placementOf } from '../../renderer/run/shards.ts';

const scenario = {
  targets: [{ url: 'http://127.0.0.1:8080/' }],
  load: { model: 'closed', connections: 4, limit: { kind: 'duration', seconds: 1 } },
};

describe('a run on shards, as jobs.start takes it', () => {
  it('accepts shards for a run, strictly, and only for a run', () => {
    const shards = { count: 3, startMarginSeconds: 10, kubernetes: null };
    expect(jobStartSchema.safeParse({ kind: 'run', plan: scenario, shards }).success).toBe(true);
    expect(jobStartSchema.safeParse({ kind: 'run', plan: scenario }).success).toBe(true);
    const extra = jobStartSchema.safeParse({ kind: 'run', plan: scenario, shards: { ...shards, pods: 1 } });
    expect(extra.success).toBe(false);
    expect(JSON.stringify(extra.error?.issues)).toContain('pods');
    const tooMany = jobStartSchema.safeParse({
      kind: 'run',
      plan: scenario,
      shards: { ...shards, count: 101 },
    });
    expect(tooMany.error?.issues[0]?.message).toBe('give 1 to 100 shards');
    const plan = { name: 'p', servers: [], levels: [] };
    expect(jobStartSchema.safeParse({ kind: 'comparison', plan, shards }).success).toBe(false);
  });
});

describe("the Run tab's shard choice", () => {
  it('is no placement for a run here, the default margin for the place, and says the field at fault', () => {
    expect(placementOf(defaultShardsDraft)).toEqual({ ok: true, placement: undefined });
    expect(placementOf({ ...defaultShardsDraft, where: 'local', count: '3' })).toEqual({
      ok: true,
      placement: { count: 3, startMarginSeconds: 10, kubernetes: null },
    });
    expect(
      placementOf({
        ...defaultShardsDraft,
        where: 'kubernetes',
        count: '4',
        image: 'reg/t:1',
        context: 'prod',
      }),
    ).toEqual({
      ok: true,
      placement: {
        count: 4,
        startMarginSeconds: 30,
        kubernetes: { image: 'reg/t:1', namespace: 'default', context: 'prod', nodeSelector: {} },
      },
    });
    expect(placementOf({ ...defaultShardsDraft, where: 'local', count: 'x' })).toEqual({
      ok: false,
      message: 'Shards: is not a number',
    });
    expect(placementOf({ ...defaultShardsDraft, where: 'kubernetes', image: ' ' })).toEqual({
      ok: false,
      message: 'Kubernetes image: give the image built from resources/docker/Dockerfile',
    });
    expect(placementOf({ ...defaultShardsDraft, where: 'local', margin: '0' })).toEqual({
      ok: false,
      message: 'Start margin: give at least 1 s for the shards to start',
    });
  });
});
