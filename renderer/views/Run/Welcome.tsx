import type { ReactNode } from 'react';
import { VIEW_HINTS } from '../../components/ViewTabs.tsx';

/** The Run view's first screen: what to do, the seed presets, and what Compare and Capacity are for. */
export function Welcome({ runKey, seeds }: { runKey: string; seeds: ReactNode }) {
  return (
    <section className="welcome card" data-testid="welcome">
      <h1>Benchmark a web server</h1>
      <ol>
        <li>
          Type the URL of a server you run, e.g. <code>http://127.0.0.1:8080/</code>.
        </li>
        <li>Keep the defaults or set connections and duration.</li>
        <li>
          Press <strong>Run</strong> (<kbd>{runKey}</kbd>) and watch throughput and latency live;{' '}
          <kbd>Esc</kbd> stops and keeps what was measured.
        </li>
      </ol>
      {seeds}
      <dl className="welcome__views" data-testid="welcome-views">
        <div>
          <dt>Compare</dt>
          <dd>{VIEW_HINTS.compare}</dd>
        </div>
        <div>
          <dt>Capacity</dt>
          <dd>{VIEW_HINTS.capacity}</dd>
        </div>
      </dl>
      <p className="muted small">
        Closed model: N connections as fast as the server answers (ab, wrk). Open model: a fixed request rate
        (vegeta) for honest latency under load.
      </p>
    </section>
  );
}
