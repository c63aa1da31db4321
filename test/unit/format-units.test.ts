import { describe, expect, it } from 'vitest';
import {
  fixed,
  formatBytes,
  formatCG,
  formatClock,
  formatCount,
  formatDurationMs,
  formatDurationSeconds,
  formatGoDuration,
  formatLiveRate,
  formatMs,
  formatMsValue,
  formatPercent,
  formatRate,
  formatRateValue,
  formatSeconds,
} from '../../shared/figures/units.ts';

describe('Go duration notation', () => {
  it('prints what vegeta printed in seed 000', () => {
    expect(formatDurationSeconds(4.990221181)).toBe('4.990221181s');
    expect(formatDurationSeconds(4.989910973)).toBe('4.989910973s');
    expect(formatDurationMs(0.310208)).toBe('310.208µs');
    expect(formatDurationMs(0.254706)).toBe('254.706µs');
    expect(formatDurationMs(1.742608)).toBe('1.742608ms');
    expect(formatDurationMs(0.37728)).toBe('377.28µs');
    expect(formatDurationMs(0.2141)).toBe('214.1µs');
    expect(formatDurationSeconds(1.586650398)).toBe('1.586650398s');
    expect(formatDurationSeconds(4.99)).toBe('4.99s');
  });

  it('covers every unit boundary as Go does', () => {
    expect(formatGoDuration(0)).toBe('0s');
    expect(formatGoDuration(1)).toBe('1ns');
    expect(formatGoDuration(999)).toBe('999ns');
    expect(formatGoDuration(1000)).toBe('1µs');
    expect(formatGoDuration(1_000_000)).toBe('1ms');
    expect(formatGoDuration(1_000_000_000)).toBe('1s');
    expect(formatGoDuration(60e9)).toBe('1m0s');
    expect(formatGoDuration(90.5e9)).toBe('1m30.5s');
    expect(formatGoDuration(7200e9)).toBe('2h0m0s');
    expect(formatGoDuration(3723.000000001e9)).toBe('1h2m3.000000001s');
    expect(formatGoDuration(-1500)).toBe('-1.5µs');
  });
});

describe('numbers', () => {
  it('formats bytes, rates, counts and percentages', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2500)).toBe('2.44 KiB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.50 MiB');
    expect(formatRate(12345.678)).toBe('12,345.68 req/s');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatPercent(0.999)).toBe('99.90%');
    expect(fixed(-0.0001, 2)).toBe('0.00');
  });
});

describe("C's %g (http_load's numbers)", () => {
  it('keeps six significant digits, drops trailing zeros and switches to exponents as printf does', () => {
    expect(formatCG(0)).toBe('0');
    expect(formatCG(289884)).toBe('289884');
    expect(formatCG(4.892741)).toBe('4.89274');
    expect(formatCG(28945.54)).toBe('28945.5');
    expect(formatCG(10.0148)).toBe('10.0148');
    expect(formatCG(2)).toBe('2');
    expect(formatCG(-2.5)).toBe('-2.5');
    expect(formatCG(30720000)).toBe('3.072e+07');
    expect(formatCG(123456789)).toBe('1.23457e+08');
    // Rounding to six digits can carry into the next power of ten.
    expect(formatCG(999999.5)).toBe('1e+06');
    expect(formatCG(0.0001234)).toBe('0.0001234');
    expect(formatCG(0.00001234)).toBe('1.234e-05');
    expect(formatCG(1.5, 3)).toBe('1.5');
  });
});

describe('screen number formatting (shared/figures/units.ts)', () => {
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
    expect(formatPercent(0.98765)).toBe('98.77%');
    expect(formatPercent(1, 1)).toBe('100.0%');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.50 KiB');
  });
});
