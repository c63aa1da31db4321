import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatClock,
  formatCount,
  formatLiveRate,
  formatMs,
  formatMsValue,
  formatRateValue,
  formatRatio,
  formatSeconds,
} from '../../renderer/lib/format.ts';

describe('renderer number formatting', () => {
  it('groups thousands and fixes decimals', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(0)).toBe('0');
    expect(formatRateValue(12345.678)).toBe('12,345.68');
    expect(formatRateValue(0)).toBe('0.00');
    expect(formatLiveRate(15234.4)).toBe('15,234');
    expect(formatLiveRate(42.34)).toBe('42.3');
  });

  it('picks a latency precision that suits the size', () => {
    expect(formatMs(0.1234)).toBe('0.123 ms');
    expect(formatMs(1.2345)).toBe('1.23 ms');
    expect(formatMs(12.345)).toBe('12.3 ms');
    expect(formatMs(123.45)).toBe('123 ms');
    expect(formatMs(1234.5)).toBe('1.23 s');
    expect(formatMs(12_345)).toBe('12.3 s');
    expect(formatMsValue(3.9)).toBe('3.900');
    expect(formatMsValue(123.45)).toBe('123.5');
  });

  it('formats clocks, seconds, ratios and bytes', () => {
    expect(formatClock(3.4)).toBe('0:03');
    expect(formatClock(65)).toBe('1:05');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(-2)).toBe('0:00');
    expect(formatSeconds(3)).toBe('3.00 s');
    expect(formatSeconds(125)).toBe('2 min 5 s');
    expect(formatRatio(0.98765)).toBe('98.77%');
    expect(formatRatio(1, 1)).toBe('100.0%');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.50 KiB');
  });
});
