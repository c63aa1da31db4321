import type { ReactNode } from 'react';
import { useFocusAfterRemove } from '../components/useFocusAfterRemove.ts';
import { withList, type ListDraft } from './listDraft.ts';
import { ServerRequestList } from './RequestListField.tsx';
import { ServerRowHead } from './ServerRowHead.tsx';

/** What every server row of a plan holds: a key that outlives edits, its name, its request list. */
export interface ServerDraft {
  key: string;
  name: string;
  list?: ListDraft;
}

/** The row's own fields, given the row, its index and a way to change it. */
type RowFields<T> = (target: T, index: number, set: (patch: Partial<T>) => void) => ReactNode;

interface ServersEditorProps<T extends ServerDraft> {
  /** The section's heading. */
  title: string;
  /** "Target" or "Server", in the row's labels and the add button. */
  noun: 'Target' | 'Server';
  /** data-testid prefix: `${prefix}-target-${i}`, `${prefix}-target-${i}-list`, `${prefix}-add-target`. */
  testPrefix: string;
  targets: readonly T[];
  onChange: (change: (targets: readonly T[]) => T[]) => void;
  newTarget: () => T;
  /** Where the row's request list is sent, said under it. */
  listHint: string;
  /** The row's URL fields, under its head. */
  urls: RowFields<T>;
  /** What the row says or asks after its request list. */
  after?: RowFields<T>;
}

/**
 * The server list of a plan (a comparison, a capacity search): a row per server with its
 * number, name and remove button, its URLs, its request list; a button that adds one. The
 * last row cannot be removed; the focus goes to the row that takes a removed one's place.
 */
export function ServersEditor<T extends ServerDraft>({
  title,
  noun,
  testPrefix,
  targets,
  onChange,
  newTarget,
  listHint,
  urls,
  after,
}: ServersEditorProps<T>) {
  const { list: rowList, removing } = useFocusAfterRemove<HTMLDivElement>('server');
  const setter = (i: number) => (patch: Partial<T>) =>
    onChange((ts) => ts.map((t, j) => (j === i ? { ...t, ...patch } : t)));
  return (
    <div className="plan-section" ref={rowList}>
      <h3 className="subhead">{title}</h3>
      {targets.map((t, i) => (
        <div className="plan-target" key={t.key} data-testid={`${testPrefix}-target-${i}`}>
          <ServerRowHead
            index={i}
            noun={noun}
            name={t.name}
            testPrefix={testPrefix}
            removable={targets.length > 1}
            onName={(name) => onChange((ts) => ts.map((x, j) => (j === i ? { ...x, name } : x)))}
            onRemove={() => {
              removing(i);
              onChange((ts) => ts.filter((_, j) => j !== i));
            }}
          />
          {urls(t, i, setter(i))}
          <ServerRequestList
            list={t.list}
            base={`targets.${i}`}
            testId={`${testPrefix}-target-${i}-list`}
            hint={listHint}
            onChange={(list) => onChange((ts) => ts.map((x, j) => (j === i ? withList(x, list) : x)))}
          />
          {after?.(t, i, setter(i))}
        </div>
      ))}
      <button
        type="button"
        className="link-btn"
        data-testid={`${testPrefix}-add-target`}
        onClick={() => onChange((ts) => [...ts, newTarget()])}
      >
        + Add {noun.toLowerCase()}
      </button>
    </div>
  );
}
