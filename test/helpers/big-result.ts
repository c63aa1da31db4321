/**
 * A large result file as a day-long run writes it (`--json`: one result, compact here, which
 * packs the most samples into a byte), made to a size: the fixture run with a sample per
 * second, every count in agreement. Written a piece at a time, so the test never holds it whole.
 */
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import type { RunResult } from '../../shared/model/result.ts';
import { amendResult, runResultFixture, sampleFixture } from './run-result.ts';

/** Writes the file (at least `bytes` long, within a sample's length of it); its size. */
export function writeBigResult(file: string, bytes: number): number {
  const sampleText = (seq: number) =>
    JSON.stringify(
      sampleFixture({
        seq,
        elapsedSeconds: seq + 1.000_123_456_789,
        intervalSeconds: 0.999_876_543_21,
        requests: 12_000,
        totalRequests: (seq + 1) * 12_000,
        requestsPerSecond: 12_001.481_481_48,
        bytesInPerSecond: 1_536_189.629_629_63,
        statusCodes: { '200': 11_997, '503': 3 },
        cpuPercent: 97.318_426_3,
      }),
    );
  const per = sampleText(0).length + 1;
  const count = Math.ceil(bytes / per);
  const result: RunResult = amendResult(runResultFixture(), {
    durationSeconds: count,
    endedAt: new Date(Date.parse(runResultFixture().startedAt) + count * 1000).toISOString(),
    samples: [],
  });
  const [head, tail] = JSON.stringify(result).split('"samples":[]');
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, `${head}"samples":[`);
    const batch: string[] = [];
    let first = true;
    for (let seq = 0; seq < count; seq++) {
      batch.push(sampleText(seq));
      if (batch.length === 5000 || seq === count - 1) {
        writeSync(fd, `${first ? '' : ','}${batch.join(',')}`);
        first = false;
        batch.length = 0;
      }
    }
    writeSync(fd, `]${tail}`);
  } finally {
    closeSync(fd);
  }
  return statSync(file).size;
}
