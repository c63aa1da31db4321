/**
 * The script of the scripted shards (scripted-shard.js), made with the engine's own Recorder:
 * two kinds of shard, each 2,000 answers a second spread from 50 us to 20 ms and sent up to 2 ms
 * late (the buckets a busy open-model window of a real shard fills: a line of about 20 KB), the
 * slow kind with one answer in twenty from 20 to 40 ms more; each a window a second and the
 * report of all its seconds. With it, what the run's histogram must hold: every link's values,
 * added.
 */
import { REPORT_PERCENTILES } from '../../shared/model/defaults.ts';
import {
  decodeHistogram,
  latencyStats,
  newHistogram,
  type Histogram,
} from '../../electron/engine/recording/histogram.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { recorderReport } from '../../electron/engine/recording/recorder-report.ts';
import { emptyOutcome } from '../../electron/engine/types.ts';
import type { TargetFacts } from '../../electron/engine/result.ts';
import { TARGET_FACTS } from './hand-links.ts';

/** What the scripted shards send (scripted-shard.js): their pre-flight's facts, and a kind's windows and report (a shard's kind is its index modulo their count). */
export interface ShardScript {
  target: TargetFacts;
  kinds: { window: object; report: object }[];
}

/** Answers a window of each kind holds: a busy second's. */
const VALUES = 2000;

function latencyUs(kind: number, i: number): number {
  const slow = kind === 1 && i % 20 === 0;
  return (slow ? 20_000 : 0) + 50 + ((i * i) % 20_000);
}

export function scriptedShards(seconds: number) {
  const kinds = [0, 1].map((kind) => {
    const recorder = new Recorder({ sloMs: null, warmup: false, now: 0 });
    let window = null as ReturnType<Recorder['takeWindow']> | null;
    for (let s = 0; s < seconds; s++) {
      for (let i = 0; i < VALUES; i++) {
        recorder.started();
        recorder.sentLate((i * 37) % 2000);
        recorder.response(200, latencyUs(kind, i), 5, 100);
        recorder.inFlight--;
      }
      window = recorder.takeWindow(5);
    }
    return { window: window!, report: recorderReport(recorder, emptyOutcome({ httpVersion: '1.1' })) };
  });
  const histograms = kinds.map((k) => decodeHistogram(k.report.histogram!));
  const { tls, server } = TARGET_FACTS;
  const script: ShardScript = { target: { tls, server }, kinds };
  return {
    script,
    windowRequests: kinds.map((k) => k.window.requests),
    kindP99: histograms.map((h) => latencyStats(h, REPORT_PERCENTILES)!.percentiles['99']),
    /** The histogram of every value `links` shards (half of each kind) recorded. */
    union(links: number): Histogram {
      const all = newHistogram();
      for (let i = 0; i < links; i++) all.add(histograms[i % 2]!);
      return all;
    },
  };
}
