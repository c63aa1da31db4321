import { describe, expect, it } from 'vitest';
import { metricsOutFromFlags } from '../../electron/cli/metrics/metrics-flags.ts';
import { CliInputError } from '../../electron/cli/values.ts';
import { parseListenAddress, parseMetricsPush, listenAddressText } from '../../shared/metrics/outs.ts';
import { parseWith } from '../../shared/model/validation.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSettingsStore } from '../../electron/stores/settings-store.ts';
import { defaultUiSettings, uiSettingsPatchSchema, uiSettingsSchema } from '../../shared/records/settings.ts';
import { metricsForm, metricsOutOf, metricsSummary } from '../../renderer/settings/metricsOutForm.ts';

const WRITE = 'http://127.0.0.1:9090/api/v1/write';

/** The CliInputError the flags give, as "field: message". */
function flagError(v: Parameters<typeof metricsOutFromFlags>[0]): string {
  try {
    metricsOutFromFlags(v);
  } catch (e) {
    if (e instanceof CliInputError) return e.message;
    throw e;
  }
  throw new Error('no error');
}

describe('--out KIND=URL', () => {
  it('reads prometheus-rw and otlp endpoints', () => {
    expect(parseMetricsPush(`prometheus-rw=${WRITE}`)).toEqual({
      ok: true,
      value: { kind: 'prometheus-rw', url: WRITE },
    });
    expect(parseMetricsPush(' otlp = http://127.0.0.1:4318/v1/metrics ')).toMatchObject({
      ok: true,
      value: { kind: 'otlp', url: 'http://127.0.0.1:4318/v1/metrics' },
    });
  });

  it('says what is wrong: no URL, an unknown way out (with the nearest), a URL without a scheme or with credentials', () => {
    expect(flagError({ out: [WRITE] })).toBe(
      `--out: "${WRITE}" is not KIND=URL (e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write)`,
    );
    expect(flagError({ out: ['prometheus'] })).toBe(
      '--out: "prometheus" is not KIND=URL (e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write)',
    );
    expect(flagError({ out: [`prometheus-wr=${WRITE}`] })).toBe(
      '--out: "prometheus-wr" is not a way out (prometheus-rw or otlp): did you mean prometheus-rw?',
    );
    expect(flagError({ out: ['otlp=127.0.0.1:4318/v1/metrics'] })).toMatch(
      /^--out: metrics URL must start with http:\/\/ or https:\/\/: did you mean http:\/\/127\.0\.0\.1:4318\/v1\/metrics\?/,
    );
    expect(flagError({ out: ['otlp=http://u:p@127.0.0.1:4318/'] })).toMatch(/must not carry credentials/);
  });

  it('refuses an endpoint given twice, and more than four', () => {
    expect(flagError({ out: [`prometheus-rw=${WRITE}`, `prometheus-rw=${WRITE}`] })).toBe(
      `--out: prometheus-rw=${WRITE} is given twice`,
    );
    const five = [1, 2, 3, 4, 5].map((i) => `otlp=http://127.0.0.1:${4000 + i}/v1/metrics`);
    expect(flagError({ out: five })).toBe('--out: give at most 4 metrics endpoints (5 given)');
  });

  it('sends nothing without the flags', () => {
    expect(metricsOutFromFlags({})).toEqual({ push: [], listen: null });
  });
});

describe('--metrics-listen HOST:PORT', () => {
  it('reads a host and port, [IPv6]:port, and :port for 127.0.0.1', () => {
    expect(parseListenAddress('0.0.0.0:9464')).toEqual({ ok: true, value: { host: '0.0.0.0', port: 9464 } });
    expect(parseListenAddress('[::1]:0')).toEqual({ ok: true, value: { host: '::1', port: 0 } });
    expect(parseListenAddress(':9464')).toEqual({ ok: true, value: { host: '127.0.0.1', port: 9464 } });
    expect(listenAddressText({ host: '::1', port: 9464 })).toBe('[::1]:9464');
  });

  it('names the flag when the text is not an address or the port is out of range', () => {
    expect(flagError({ 'metrics-listen': '9464' })).toBe(
      '--metrics-listen: "9464" is not HOST:PORT (e.g. 127.0.0.1:9464)',
    );
    expect(flagError({ 'metrics-listen': 'localhost:70000' })).toBe('--metrics-listen: a port is 0 to 65535');
  });
});

describe('the app\'s "Send live metrics to …" setting', () => {
  it('is kept with the UI\'s settings, and a settings file from before it reads as "none"', () => {
    const { metrics: _none, ...before } = defaultUiSettings();
    const read = parseWith(uiSettingsSchema, before);
    expect(read.ok && read.value.metrics).toEqual({ push: [], listen: null });
    const refused = parseWith(uiSettingsSchema, {
      ...before,
      metrics: { push: [{ kind: 'prometheus-rw', url: WRITE, token: 'x' }], listen: null },
    });
    expect(refused.ok).toBe(false);
  });

  it('stays when the page keeps its other settings (a patch that does not name it leaves it)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trebuchet-metrics-settings-'));
    try {
      const store = new FileSettingsStore({ dir });
      const metrics = {
        push: [{ kind: 'otlp' as const, url: 'http://127.0.0.1:4318/v1/metrics' }],
        listen: null,
      };
      store.setUi(uiSettingsPatchSchema.parse({ metrics }));
      const pagePatch = uiSettingsPatchSchema.parse({ view: 'history' });
      expect('metrics' in pagePatch).toBe(false);
      store.setUi(pagePatch);
      expect(new FileSettingsStore({ dir }).ui()).toMatchObject({ view: 'history', metrics });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is a form of one field per way out, read with the flags' parsers, each problem at its field", () => {
    const form = { remoteWrite: ` ${WRITE} `, otlp: '', listen: '127.0.0.1:9464' };
    const checked = metricsOutOf(form);
    expect(checked).toEqual({
      ok: true,
      out: { push: [{ kind: 'prometheus-rw', url: WRITE }], listen: { host: '127.0.0.1', port: 9464 } },
    });
    expect(checked.ok && metricsForm(checked.out)).toEqual({
      remoteWrite: WRITE,
      otlp: '',
      listen: '127.0.0.1:9464',
    });
    expect(metricsOutOf({ remoteWrite: 'ftp://x/', otlp: 'localhost:4318', listen: 'nope' })).toEqual({
      ok: false,
      problems: {
        remoteWrite: 'metrics URL must start with http:// or https:// (got ftp://)',
        otlp: 'metrics URL must start with http:// or https://: did you mean http://localhost:4318?',
        listen: '"nope" is not HOST:PORT (e.g. 127.0.0.1:9464)',
      },
    });
    expect(metricsOutOf({ remoteWrite: '', otlp: '', listen: '' })).toEqual({
      ok: true,
      out: { push: [], listen: null },
    });
  });

  it('says on its button where the metrics go', () => {
    expect(metricsSummary({ push: [], listen: null })).toBe('Send live metrics to…');
    expect(
      metricsSummary({
        push: [
          { kind: 'prometheus-rw', url: WRITE },
          { kind: 'otlp', url: 'http://127.0.0.1:4318/v1/metrics' },
        ],
        listen: { host: '127.0.0.1', port: 9464 },
      }),
    ).toBe('Live metrics: Prometheus, OTLP, scrape 127.0.0.1:9464');
  });
});
