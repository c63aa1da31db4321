import { useState, type DragEvent } from 'react';
import { Field, RemoveButton, Segmented, TextField } from './fields.tsx';
import { formatBytes } from '../../shared/figures/units.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import {
  listSummary,
  newListDraft,
  newSeed,
  parseList,
  type ListDraft,
  type ListFormatChoice,
} from './listDraft.ts';
import { useFieldIssue } from './issues.ts';
import { pickText } from './pickedFile.ts';
import './RequestListField.css';

interface RequestListFieldProps {
  list: ListDraft;
  /** The target's schema path ("targets.0"): the list's messages show at `${base}.requests`. */
  base: string;
  /** Test ids start with it ("target-list-0"). */
  testId: string;
  onChange: (list: ListDraft) => void;
  /** Back to one URL. */
  onRemove: () => void;
  /** What the list's URLs mean where it is (a comparison's: paths on each cell's server). */
  hint?: string;
}

const FORMATS: readonly { value: ListFormatChoice; label: string; title: string }[] = [
  {
    value: 'auto',
    label: 'Detect',
    title: 'from the first line: { JSON lines, METHOD URL http format, else URLs',
  },
  { value: 'urls', label: 'URLs', title: "http_load's url file: one URL per line" },
  { value: 'http', label: 'vegeta http', title: 'METHOD URL, header lines, a blank line between requests' },
  { value: 'json', label: 'vegeta JSON', title: '{"method", "url", "header", "body" (base64)} per line' },
];

const FORMAT_NAMES = { urls: 'URLs', http: 'vegeta http', json: 'vegeta JSON' } as const;

const PLACEHOLDER =
  'http://127.0.0.1:8080/\nhttp://127.0.0.1:8080/style.css\nhttp://127.0.0.1:8080/api/items';

/**
 * A target's list of requests: pasted, imported or dropped as the text of a vegeta or
 * http_load targets file, its format and order, and what it holds (count, distinct URLs,
 * the first requests), or the line that is not a request.
 */
export function RequestListField({ list, base, testId, onChange, onRemove, hint }: RequestListFieldProps) {
  const [problem, setProblem] = useState<string | null>(null);
  // An imported file's problem shows at once, as a typed one does.
  const { touch } = useFieldIssue(`${base}.requests`);
  const set = (patch: Partial<ListDraft>): void => onChange({ ...list, ...patch });
  const parsed = parseList(list);
  const summary = parsed.ok ? listSummary(parsed.requests) : null;
  const load = async (file: File | undefined): Promise<void> => {
    if (!file) return;
    const picked = await pickText(file);
    setProblem(picked.ok ? null : picked.message);
    if (picked.ok) set({ text: picked.value.text, saved: [], file: picked.value.name });
    touch();
  };
  // A dropped file is read as the list; dropped text goes into the text area as usual.
  const carriesFile = (e: DragEvent): boolean => e.dataTransfer.types.includes('Files');
  const onDrop = (e: DragEvent): void => {
    if (!carriesFile(e)) return;
    e.preventDefault();
    void load(e.dataTransfer.files[0]);
  };

  return (
    <div
      className="request-list"
      data-testid={testId}
      onDragOver={(e) => {
        if (carriesFile(e)) e.preventDefault();
      }}
      onDrop={onDrop}
    >
      <div className="request-list__head">
        <span className="request-list__title">List of requests{list.file ? ` · ${list.file}` : ''}</span>
        <label className="pick-file__button">
          Import a file…
          <input
            className="visually-hidden"
            type="file"
            accept=".txt,.http,.json,.jsonl,.urls,text/plain"
            data-testid={`${testId}-import`}
            onChange={(e) => {
              const input = e.currentTarget;
              const file = input.files?.[0];
              // Cleared, so importing the same file again (after editing it) reads it again.
              input.value = '';
              void load(file);
            }}
          />
        </label>
        <RemoveButton
          label="Remove the list (back to one URL)"
          testId={`${testId}-remove`}
          onClick={onRemove}
        />
      </div>
      {problem && (
        <p className="field__error" role="alert" data-testid={`${testId}-import-problem`}>
          {problem}
        </p>
      )}
      <Field
        label={list.text === null ? 'Saved list' : 'Requests'}
        path={`${base}.requests`}
        hint={`paste, import or drop a vegeta targets file or an http_load url file (at most ${formatBytes(LIMITS.uploadBytes.max)})${hint ? `; ${hint}` : ''}`}
      >
        {({ id, invalid, describedBy, touch }) =>
          list.text === null ? (
            <p className="muted" id={id}>
              Kept as saved: its requests carry bodies.{' '}
              <button type="button" className="link-btn" onClick={() => set({ text: '', saved: [] })}>
                Replace it with a pasted list
              </button>
            </p>
          ) : (
            <textarea
              id={id}
              className="input textarea request-list__text"
              rows={5}
              spellCheck={false}
              placeholder={PLACEHOLDER}
              value={list.text}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              data-testid={`${testId}-text`}
              onChange={(e) => {
                set({ text: e.target.value });
                touch();
              }}
            />
          )
        }
      </Field>
      {list.text !== null && (
        <Segmented
          label={`Format${list.format === 'auto' && parsed.format ? ` (detected: ${FORMAT_NAMES[parsed.format]})` : ''}`}
          value={list.format}
          options={FORMATS}
          testId={`${testId}-format`}
          onChange={(format) => set({ format })}
        />
      )}
      <Segmented
        label="Order"
        value={list.order}
        options={[
          { value: 'round-robin', label: 'Round-robin', title: 'each request in turn (vegeta)' },
          { value: 'random', label: 'Random', title: 'drawn with a seed (http_load)' },
        ]}
        testId={`${testId}-order`}
        onChange={(order) =>
          set({ order, seed: order === 'random' && list.seed === '' ? newSeed() : list.seed })
        }
      />
      {list.order === 'random' && (
        <TextField
          label="Seed"
          path={`${base}.order.seed`}
          value={list.seed}
          numeric
          hint="the same seed sends the same requests in the same order"
          testId={`${testId}-seed`}
          onChange={(seed) => set({ seed })}
        />
      )}
      {summary && summary.count > 0 && (
        <div className="request-list__summary" data-testid={`${testId}-summary`}>
          <p>
            <strong>{summary.count}</strong> request{summary.count === 1 ? '' : 's'},{' '}
            <strong>{summary.distinctUrls}</strong> distinct URL{summary.distinctUrls === 1 ? '' : 's'}
          </p>
          <ol className="request-list__first">
            {summary.first.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
            {summary.count > summary.first.length && <li className="muted">…</li>}
          </ol>
        </div>
      )}
    </div>
  );
}

/**
 * Where a server row of the Compare or Capacity editor takes a list: the button that starts
 * one, or the list; its URLs are paths on the row's own URL's server (the hint says so).
 */
export function ServerRequestList({
  list,
  base,
  testId,
  hint,
  onChange,
}: {
  list: ListDraft | undefined;
  base: string;
  testId: string;
  hint: string;
  onChange: (list: ListDraft | undefined) => void;
}) {
  return list ? (
    <RequestListField
      list={list}
      base={base}
      testId={testId}
      hint={hint}
      onChange={onChange}
      onRemove={() => onChange(undefined)}
    />
  ) : (
    <button
      type="button"
      className="link-btn"
      data-testid={`${testId}-add`}
      onClick={() => onChange(newListDraft())}
    >
      + Spread the load over a list of URLs
    </button>
  );
}
