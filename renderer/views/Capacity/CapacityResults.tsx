import { useCallback, useMemo, useState } from 'react';
import { capacitySentence, goalText, JUDGEMENT_LABELS, rateText } from '../../../shared/capacity/search.ts';
import {
  notTheServers,
  type CapacityResult,
  type ReportedStep,
  type SearchReport,
} from '../../../shared/capacity/report.ts';
import { thinP99 } from '../../../shared/capacity/step-length.ts';
import { capacityExport } from '../../../shared/export/capacity.ts';
import { fileSlug } from '../../../shared/model/file-name.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import { STEP_COLUMNS, stepTexts } from '../../../shared/format/capacity-text.ts';
import type { Palette } from '../../charts/palette.ts';
import { ChartCard } from '../../components/ChartCard.tsx';
import { RunReport } from '../../report/RunReport.tsx';
import type { ChartAbout } from '../../charts/chartSubject.ts';
import { ExportBar } from '../../export/ExportBar.tsx';
import { heldRateChart, kneeChart } from './capacityCharts.ts';
import './capacity.css';

interface CapacityResultsProps {
  /** The job: its plan, how it stands and every step measured (what its files are made of). */
  result: CapacityResult;
  /** Its searches' reports (shared/capacity/report.ts capacityReports). */
  reports: readonly SearchReport[];
  /** The search still measuring, null once the job ended. */
  running: number | null;
  /** The job's name, for the step runs' file names. */
  name: string;
}

/**
 * The capacity searches' answer: one sentence for every server, each one's answer and why it
 * stopped, the knee (latency against throughput) and the highest rate each held, then every
 * step, each opening its own run's report.
 */
export function CapacityResults({ result, reports, running, name }: CapacityResultsProps) {
  const [opened, setOpened] = useState<{ search: number; step: number } | null>(null);
  const bundle = useMemo(() => capacityExport(withoutSecrets(result), { running }), [result, running]);
  const limited = reports.some((r) => r.steps.some(notTheServers));
  const goal = reports[0]?.search.goal;
  const answered = reports.flatMap((r) => (r.answer ? [{ label: r.label, answer: r.answer }] : []));
  const knee = useCallback((p: Palette) => kneeChart(reports, p), [reports]);
  const bars = useCallback((p: Palette) => heldRateChart(reports, p), [reports]);
  const about = useMemo<ChartAbout>(
    () => ({
      targets: reports.map((r) => r.label),
      load: goal
        ? { text: goalText(goal), slug: `p99-${fileSlug(String(goal.p99Ms))}ms` }
        : { text: '', slug: '' },
      date: reports.flatMap((r) => r.steps.map((s) => s.result.startedAt)).sort()[0] ?? '',
    }),
    [reports, goal],
  );
  const step = opened === null ? null : reports[opened.search]?.steps[opened.step];
  if (opened !== null && step) {
    const label = reports[opened.search]!.label;
    return (
      <section className="cell-run" data-testid="capacity-step-run">
        <header className="card cell-run__head">
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            data-testid="capacity-step-back"
            autoFocus
            onClick={() => setOpened(null)}
          >
            ← Back to the search
          </button>
          <div className="cell-run__what">
            <h2 className="cell-run__title" data-testid="capacity-step-title">
              {label} · {rateText(step.rate)}
            </h2>
            <p className="muted small">
              step {opened.step + 1} ({step.phase}): {JUDGEMENT_LABELS[step.judgement.kind]}
            </p>
          </div>
        </header>
        <RunReport results={[step.result]} name={`${name} ${label} ${step.rate}`} />
      </section>
    );
  }
  return (
    <section className="capacity-results" data-testid="capacity-results">
      {goal && answered.length > 0 && (
        <div className="card capacity-answer">
          <p className="capacity-answer__sentence" data-testid="capacity-answer">
            {capacitySentence(goal, answered)}
          </p>
          <ul className="capacity-answer__list">
            {reports.map((r, i) =>
              r.answer ? (
                <li
                  key={i}
                  data-testid={`capacity-answer-${i}`}
                  data-stop={r.answer.stop}
                  data-held={r.answer.heldRate ?? ''}
                  className={r.answer.exact ? undefined : 'capacity-answer__bound'}
                >
                  <strong>{r.label}</strong>: {r.answer.message}
                </li>
              ) : null,
            )}
          </ul>
        </div>
      )}
      <div className="chart-grid">
        <ChartCard
          title="Latency against throughput (the knee)"
          testId="chart-capacity-knee"
          slug="capacity-knee"
          about={about}
          build={knee}
          tall
          note={`Solid: p99, dashed: p50.${limited ? " A hollow triangle is a step the client or a busy machine limited: its figures are not the server's." : ''}`}
        />
        <ChartCard
          title="Highest rate held within the goal"
          testId="chart-capacity-held"
          slug="capacity-held"
          about={about}
          build={bars}
          tall
          marks={reports.filter((r) => r.answer?.exact === false).length}
          note="Hatched: a lower bound (the client was the limit, the top rate held, or the search was stopped)."
        />
      </div>
      {reports.map((r, i) => (
        <StepTable key={i} report={r} index={i} onOpen={(k) => setOpened({ search: i, step: k })} />
      ))}
      <ExportBar bundle={bundle} date={about.date instanceof Date ? about.date.toISOString() : about.date} />
    </section>
  );
}

/** One search's steps in the order they ran, each opening its run's report. */
function StepTable({
  report,
  index,
  onOpen,
}: {
  report: SearchReport;
  index: number;
  onOpen: (step: number) => void;
}) {
  if (report.steps.length === 0) return null;
  return (
    <figure className="card table-card">
      <figcaption className="table-card__title">
        {report.label}: {report.steps.length} step{report.steps.length === 1 ? '' : 's'}
      </figcaption>
      <table className="table capacity-steps" data-testid={`capacity-steps-${index}`}>
        <thead>
          <tr>
            <th>#</th>
            {STEP_COLUMNS.map((c, i) => (
              <th key={c} className={i >= 2 && i <= 6 ? 'num' : undefined}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.steps.map((s: ReportedStep, k) => {
            const t = stepTexts(s);
            return (
              <tr key={k} data-judgement={s.judgement.kind} title={t.why ?? undefined}>
                <td>
                  <button
                    type="button"
                    className="link-btn"
                    data-testid={`capacity-open-step-${index}-${k}`}
                    onClick={() => onOpen(k)}
                  >
                    {k + 1}
                  </button>
                </td>
                <td>{t.rate}</td>
                <td>{t.phase}</td>
                <td className="num">{t.achieved}</td>
                <td className="num">{t.p50}</td>
                <P99Cell step={s} text={t.p99} />
                <td className="num">{t.errors}</td>
                <td className="num">{t.non2xx}</td>
                <td>
                  <span className={`verdict capacity-step--${s.judgement.kind}`}>{t.judgement}</span>
                  {t.why && <span className="capacity-step__why">{t.why}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </figure>
  );
}

/** A step's p99, marked when it rests on fewer requests than a p99 needs. */
function P99Cell({ step, text }: { step: ReportedStep; text: string }) {
  const thin = step.figures.p99 === null ? null : thinP99(step.result.requests.responses);
  return (
    <td className="num" data-thin={thin ? 'true' : undefined}>
      {text}
      {thin && (
        <span className="caveat-mark" title={`p99 ${thin}`} aria-label={`p99 ${thin}`}>
          !
        </span>
      )}
    </td>
  );
}
