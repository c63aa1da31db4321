import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../shared/model/duration.ts';

describe('durations as the CLI and the editors take them', () => {
  it("reads Go's notation and bare numbers in the field's unit", () => {
    expect(parseDuration('1m30s', 's')).toBe(90);
    expect(parseDuration(' 10 ', 's')).toBe(10);
    expect(parseDuration('1h', 's')).toBe(3600);
    expect(parseDuration('.5s', 's')).toBe(0.5);
    expect(parseDuration('1.5s', 'ms')).toBe(1500);
    expect(parseDuration('300', 'ms')).toBe(300);
    expect(parseDuration('250µs', 'ms')).toBe(0.25);
    expect(parseDuration('2m', 'ms')).toBe(120_000);
  });

  it('refuses what is no duration', () => {
    for (const t of ['', 's', '1m30', '1m30x', '-5s', '5 s', '1e3', 'abc']) {
      expect(parseDuration(t, 's'), t).toBeNull();
    }
  });
});
