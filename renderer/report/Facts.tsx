import { generatorCpuText, sendLatenessText, tickPauseText } from '../../shared/format/generator-text.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { formatBytes, formatCount } from '../../shared/figures/units.ts';

type Row = [label: string, value: string];

function FactList({ title, rows, testId }: { title: string; rows: Row[]; testId: string }) {
  return (
    <figure className="card facts" data-testid={testId}>
      <figcaption className="table-card__title">{title}</figcaption>
      <dl>
        {rows.map(([label, value]) => (
          <div key={label} className="facts__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </figure>
  );
}

/** What ab prints about the server, the TLS session, and what we know of the generator. */
export function Facts({ result }: { result: RunResult }) {
  const s = result.server;
  const tls = result.tls;
  const g = result.generator;
  const late = sendLatenessText(result);
  const pause = tickPauseText(result);
  return (
    <div className="facts-grid">
      {s && (
        <FactList
          title="Server"
          testId="server-facts"
          rows={[
            ['Software', s.software ?? 'not announced'],
            ['Host', `${s.hostname}:${s.port}`],
            ...(s.connectedTo ? [['Connected to', s.connectedTo] satisfies Row] : []),
            ['Document path', s.documentPath],
            ['Document length', s.documentLength === null ? '–' : `${formatCount(s.documentLength)} bytes`],
            ['HTTP version', s.httpVersion ?? '–'],
          ]}
        />
      )}
      {tls && (
        <FactList
          title="TLS"
          testId="tls-facts"
          rows={[
            ['Protocol', tls.protocol ?? '–'],
            ['Cipher', tls.cipher ?? '–'],
            ['ALPN', tls.alpn ?? '–'],
            [
              'Certificate',
              tls.verified
                ? 'verified'
                : `not verified${tls.authorizationError ? ` (${tls.authorizationError})` : ''}`,
            ],
          ]}
        />
      )}
      <FactList
        title="Generator"
        testId="generator-facts"
        rows={[
          ['Engine', `${g.engine} ${g.engineVersion}`],
          ['CPU', `${g.cpuModel} × ${g.cpuCores}`],
          ['CPU use', generatorCpuText(result)],
          ...(late === null ? [] : ([['Send lateness', late]] as [string, string][])),
          ...(pause === null ? [] : ([['Tick pause', pause]] as [string, string][])),
          ['Sent', `${formatBytes(result.bytes.outTotal)}`],
          ['Runtime', `Node ${g.nodeVersion} · ${g.platform} · Trebuchet ${g.appVersion}`],
        ]}
      />
    </div>
  );
}
