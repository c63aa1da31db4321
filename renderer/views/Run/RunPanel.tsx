import type { RunResult } from '../../../shared/model/result.ts';
import { targetLabel, type Scenario } from '../../../shared/model/scenario.ts';
import {
  formatClock,
  formatCount,
  formatLiveRate,
  formatMs,
  formatRateValue,
} from '../../../shared/figures/units.ts';
import { TargetStrip } from '../../components/TargetStrip.tsx';
import { useRevealWhenStacked } from '../../components/useRevealWhenStacked.ts';
import { progressOf } from './progress.ts';
import { useNow } from './useNow.ts';
import type { RunState } from './runJob.ts';
import { statusBadge, statusText, targetStatus } from './targetStatus.ts';
import './run.css';

interface RunPanelProps {
  state: RunState;
  shown: number | null;
  onPick: (index: number) => void;
}

/** Progress, live counters and, for several targets, which one runs and each one's outcome. */
export function RunPanel({ state, shown, onPick }: RunPanelProps) {
  // The clock ticks here, so only this panel re-renders between samples.
  const now = useNow(state.current !== null);
  // Each run (a generation) brought into view where the editor sits above it.
  const reveal = useRevealWhenStacked<HTMLElement>(state.generation);
  const scenario = state.plan;
  if (!scenario || shown === null) return null;
  const live = state.live[shown];
  const result = state.results[shown] ?? null;
  const status = targetStatus(state, shown);
  const running = status === 'running';
  const badge = statusBadge(status, result);
  const target = scenario.targets[shown];

  const elapsed =
    running && state.partStartedAt !== null
      ? (now - state.partStartedAt) / 1000
      : (result?.durationSeconds ?? 0) + (result?.options.warmupSeconds ?? 0);
  const progress = running ? progressOf(scenario, elapsed, live?.last ?? null) : null;
  const fraction = progress
    ? (progress.fraction ?? 0)
    : result
      ? finishedFraction(scenario, result, elapsed)
      : 0;

  // Live figures from the last sample; once the target has a result, its summary cards take over.
  const requests = live?.last?.totalRequests ?? 0;
  const rps = live?.last?.requestsPerSecond ?? 0;
  const errors = live?.errors ?? 0;
  const p99 = live?.last?.latency?.p99 ?? null;

  const targetCount = scenario.targets.length;
  return (
    <section ref={reveal} className="run-panel card" data-testid="run-panel" data-phase={state.phase}>
      {targetCount > 1 && (
        <TargetStrip
          targets={scenario.targets.map((t, i) => {
            const st = targetStatus(state, i);
            const r = state.results[i];
            return {
              label: targetLabel(t),
              // A finished target whose figures are not the server's gets the caveat's dot, not green.
              status: statusBadge(st, r ?? null).look,
              meta: r ? `${formatRateValue(r.throughput.requestsPerSecond)} req/s` : statusText(st),
            };
          })}
          shown={shown}
          onPick={onPick}
          testIds
        />
      )}

      <div className="progress-head">
        <div className="progress-head__what">
          <span className={`badge badge--${badge.look}`} data-testid="run-status" data-status={status}>
            {progress?.warmup ? 'warming up' : badge.text}
          </span>
          <span className="progress-head__target">
            {targetCount > 1 && `Target ${shown + 1} of ${targetCount} · `}
            {target ? targetLabel(target) : ''}
          </span>
          {target && (
            <span className="progress-head__url muted" title={target.url}>
              {target.method} {target.url}
            </span>
          )}
        </div>
        <div className="progress-head__time">
          <span data-testid="progress-elapsed">{formatClock(elapsed)}</span>
          <span className="muted">{result ? ' measured' : ' elapsed'}</span>
          {progress && (
            <>
              <span className="muted"> · </span>
              <span data-testid="progress-remaining">
                {progress.remaining === null ? '–' : formatClock(Math.ceil(progress.remaining))}
              </span>
              <span className="muted"> left</span>
            </>
          )}
        </div>
      </div>
      <div
        className={`progress${status === 'cancelled' || status === 'interrupted' || status === 'failed' ? ` progress--${status === 'interrupted' ? 'cancelled' : status}` : ''}`}
        role="progressbar"
        aria-label="Run progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(fraction * 100)}
        data-testid="progress"
      >
        <div
          className={`progress__bar${running ? ' is-running' : ''}`}
          style={{ width: `${(fraction * 100).toFixed(1)}%` }}
        />
      </div>

      {!result && (
        <div className="counters">
          <Counter label="Requests" value={formatCount(requests)} raw={requests} testId="counter-requests" />
          <Counter label="Requests/s" value={formatLiveRate(rps)} raw={rps} testId="counter-rps" accent />
          <Counter
            label="Errors"
            value={formatCount(errors)}
            raw={errors}
            testId="counter-errors"
            tone={errors > 0 ? 'bad' : undefined}
          />
          <Counter
            label="Latency p99"
            value={p99 === null ? '–' : formatMs(p99)}
            raw={p99 ?? undefined}
            testId="counter-p99"
          />
        </div>
      )}
    </section>
  );
}

/** A stopped target's bar stays where it was stopped; a finished or failed one is full. */
function finishedFraction(scenario: Scenario, result: RunResult, elapsed: number): number {
  if (result.status !== 'cancelled' && result.status !== 'interrupted') return 1;
  const last = result.samples.at(-1) ?? null;
  return progressOf(scenario, elapsed, last).fraction ?? 0;
}

function Counter(props: {
  label: string;
  value: string;
  raw?: number;
  testId: string;
  accent?: boolean;
  tone?: 'bad';
}) {
  return (
    <div
      className={`counter${props.accent ? ' counter--accent' : ''}${props.tone ? ` counter--${props.tone}` : ''}`}
    >
      <span className="counter__label">{props.label}</span>
      <span className="counter__value" data-testid={props.testId} data-value={props.raw}>
        {props.value}
      </span>
    </div>
  );
}
