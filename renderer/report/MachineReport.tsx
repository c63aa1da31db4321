import { useMemo } from 'react';
import { describeMachine, machineRows } from '../../shared/format/machine/machine-table.ts';
import { fixed } from '../../shared/figures/units.ts';
import type { MachineFacts } from '../../shared/model/machine-facts.ts';
import { TableCard } from './ReportTables.tsx';
import './ServerResources.css';

/**
 * The report's Machine card (issue 32): the machine the load came from over the measured
 * time: its CPU shares, the other processes and the busiest of them, the link, how it was
 * read, notes and the readings' own cost. The verdict above says what they mean.
 */
export function MachineReport({ machine }: { machine: MachineFacts }) {
  const rows = useMemo(() => machineRows(machine), [machine]);
  return (
    <TableCard className="server-resources" testId="machine-report" title="Machine">
      <div className="server-resources__body">
        <table className="table" data-testid="machine-table">
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-figure={r.key}>
                <th scope="row">{r.label}</th>
                <td>{r.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div>
          <dl className="server-resources__facts">
            <div>
              <dt>Read</dt>
              <dd data-testid="machine-source">{describeMachine(machine)}</dd>
            </div>
            <div>
              <dt>Readings</dt>
              <dd>
                {machine.samples.length}, at least {fixed(machine.minIntervalMs / 1000, 1)} s apart
              </dd>
            </div>
            {machine.monitorCpuPercent !== null && (
              <div>
                <dt>Readings' cost</dt>
                <dd>{fixed(machine.monitorCpuPercent, 2)}% of a core (on the host)</dd>
              </div>
            )}
          </dl>
          {machine.notes.length > 0 && (
            <ul className="server-resources__notes" data-testid="machine-notes">
              {machine.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </TableCard>
  );
}
