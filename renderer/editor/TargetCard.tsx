import { httpMethodSchema } from '../../shared/model/scenario.ts';
import { Field, RemoveButton, Segmented, TextField, TextFields, textField } from './fields.tsx';
import { CopyIcon } from '../components/icons.tsx';
import { runShortcutLabel } from '../lib/shortcuts.ts';
import { newHeader, type BodyKind, type HeaderDraft, type TargetDraft } from './draft.ts';
import { splitHeaderLine, urlFix } from './fieldFixes.ts';
import { newListDraft, withList } from './listDraft.ts';
import { MonitorField } from './MonitorField.tsx';
import { RequestListField } from './RequestListField.tsx';
import { PickFileField } from './PickFileField.tsx';
import { pickBody } from './pickedFile.ts';
import { useFileAccess } from './useFileAccess.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { formatBytes } from '../../shared/figures/units.ts';

interface TargetCardProps {
  index: number;
  target: TargetDraft;
  canRemove: boolean;
  onChange: (next: TargetDraft) => void;
  onRemove: () => void;
  onDuplicate: () => void;
}

const METHODS = httpMethodSchema.options;
const BODY_KINDS: readonly { value: BodyKind; label: string }[] = [
  { value: 'none', label: 'No body' },
  { value: 'text', label: 'Text' },
  { value: 'file', label: 'File' },
];

/** One target: method and URL (or a list of requests) up front, the server monitor, name, headers and body, and where to connect below. */
export function TargetCard({ index, target, canRemove, onChange, onRemove, onDuplicate }: TargetCardProps) {
  const set = (patch: Partial<TargetDraft>): void => onChange({ ...target, ...patch });
  const setHeader = (j: number, patch: Partial<HeaderDraft>): void =>
    set({ headers: target.headers.map((h, k) => (k === j ? { ...h, ...patch } : h)) });
  const base = `targets.${index}`;
  const files = useFileAccess();
  const fixed = urlFix(target.url);

  return (
    <div className="target-card" data-testid={`target-${index}`}>
      <div className="target-card__head">
        <span className="target-card__index">{index + 1}</span>
        <input
          className="input input--ghost"
          aria-label={`Target ${index + 1} name`}
          placeholder="Name (optional)"
          value={target.name}
          // Where the focus lands when the target before it is removed (useFocusAfterRemove).
          data-row-focus="target"
          data-testid={`target-name-${index}`}
          onChange={(e) => set({ name: e.target.value })}
        />
        <div className="target-card__actions">
          <button
            type="button"
            className="icon-btn"
            title="Duplicate target"
            aria-label={`Duplicate target ${index + 1}`}
            data-testid={`target-duplicate-${index}`}
            onClick={onDuplicate}
          >
            <CopyIcon />
          </button>
          <RemoveButton
            label={`Remove target ${index + 1}`}
            className="icon-btn--danger"
            disabled={!canRemove}
            testId={`target-remove-${index}`}
            onClick={onRemove}
          />
        </div>
      </div>

      {target.list ? (
        <RequestListField
          list={target.list}
          base={base}
          testId={`target-list-${index}`}
          onChange={(list) => set({ list })}
          onRemove={() => onChange(withList(target, undefined))}
        />
      ) : (
        <>
          <Field
            label="URL"
            context={`Target ${index + 1}`}
            path={`${base}.url`}
            // Run sits in the top bar, before the form: the key that reaches it from here.
            hint={index === 0 ? `${runShortcutLabel(navigator.platform)} runs from any field` : undefined}
            fix={
              fixed && {
                label: fixed.label,
                apply: () => set({ url: fixed.value }),
                testId: `target-url-${index}-fix`,
              }
            }
          >
            {({ id, invalid, describedBy, touch }) => (
              <div className="url-row">
                <select
                  className="input select url-row__method"
                  aria-label={`Target ${index + 1} method`}
                  value={target.method}
                  data-testid={`target-method-${index}`}
                  onChange={(e) => {
                    const m = httpMethodSchema.safeParse(e.target.value);
                    if (m.success) set({ method: m.data });
                  }}
                >
                  {METHODS.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
                <input
                  id={id}
                  className="input url-row__url"
                  type="text"
                  inputMode="url"
                  spellCheck={false}
                  autoComplete="off"
                  placeholder="http://127.0.0.1:8080/"
                  value={target.url}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  data-testid={`target-url-${index}`}
                  onChange={(e) => {
                    set({ url: e.target.value });
                    touch();
                  }}
                  // Tabbing through the empty field is no edit: it turns red only once a run is tried.
                  onBlur={() => {
                    if (target.url !== '') touch();
                  }}
                />
              </div>
            )}
          </Field>
          <button
            type="button"
            className="link-btn target-card__use-list"
            data-testid={`target-list-add-${index}`}
            onClick={() => set({ list: newListDraft() })}
          >
            + Spread the load over a list of URLs
          </button>
        </>
      )}

      <MonitorField
        value={target.monitor}
        path={`${base}.monitor`}
        testId={`target-monitor-${index}`}
        onChange={(monitor) => set({ monitor })}
      />

      <details className="target-card__more" open={target.headers.length > 0 || target.bodyKind !== 'none'}>
        <summary>
          Headers and body
          {target.headers.length > 0 && <span className="pill">{target.headers.length}</span>}
          {target.bodyKind !== 'none' && <span className="pill">body</span>}
        </summary>
        <div className="headers">
          {target.headers.map((h, j) => {
            // A whole line typed as the name ("X-Test: 1"), the value still empty: offer to split it.
            const split = h.value.trim() === '' ? splitHeaderLine(h.name) : null;
            return (
              <div className="header-row" key={h.key}>
                <TextFields
                  values={h}
                  onChange={(patch) => setHeader(j, patch)}
                  fields={[
                    textField('name', `Header ${j + 1} name`, `${base}.headers.${j}.name`, {
                      placeholder: 'Accept',
                      testId: `header-name-${index}-${j}`,
                    }),
                    textField('value', `Header ${j + 1} value`, `${base}.headers.${j}.value`, {
                      placeholder: '*/*',
                      testId: `header-value-${index}-${j}`,
                    }),
                  ]}
                />
                <RemoveButton
                  label={`Remove header ${j + 1}`}
                  className="header-row__remove"
                  onClick={() => set({ headers: target.headers.filter((_, k) => k !== j) })}
                />
                {split && (
                  <button
                    type="button"
                    className="link-btn header-row__split"
                    data-testid={`header-split-${index}-${j}`}
                    onClick={() => setHeader(j, split)}
                  >
                    Split at the colon: {split.name} → {split.value === '' ? '(empty)' : split.value}
                  </button>
                )}
              </div>
            );
          })}
          <button
            type="button"
            className="link-btn"
            data-testid={`header-add-${index}`}
            onClick={() => set({ headers: [...target.headers, newHeader()] })}
          >
            + Add header
          </button>
        </div>
        <Segmented
          label="Body"
          value={target.bodyKind}
          options={BODY_KINDS}
          testId={`body-kind-${index}`}
          onChange={(bodyKind) => set({ bodyKind })}
        />
        {target.bodyKind === 'text' && (
          <Field label="Body text" path={`${base}.body.text`}>
            {({ id, describedBy }) => (
              <textarea
                id={id}
                className="input textarea"
                rows={4}
                spellCheck={false}
                value={target.bodyText}
                aria-describedby={describedBy}
                data-testid={`body-text-${index}`}
                onChange={(e) => set({ bodyText: e.target.value })}
              />
            )}
          </Field>
        )}
        {target.bodyKind === 'file' && files.pick && (
          <PickFileField
            label="Body file"
            path={`${base}.body.data`}
            picked={target.bodyUpload}
            testId={`body-pick-${index}`}
            hint={`sent from this browser, at most ${formatBytes(LIMITS.uploadBytes.max)}`}
            onPick={async (file) => {
              const picked = await pickBody(file);
              if (picked.ok) set({ bodyUpload: picked.value });
              return picked.ok ? null : picked.message;
            }}
            onClear={() => {
              const { bodyUpload: _dropped, ...rest } = target;
              onChange(rest);
            }}
          />
        )}
        {target.bodyKind === 'file' && files.paths && !target.bodyUpload && (
          <TextField
            label={files.folder === null ? 'Body file (path on the host)' : `Or a file in ${files.folder}`}
            path={`${base}.body.path`}
            value={target.bodyPath}
            placeholder={files.folder === null ? '/path/to/payload.json' : 'payload.json'}
            testId={`body-path-${index}`}
            onChange={(bodyPath) => set({ bodyPath })}
          />
        )}
      </details>

      <details
        className="target-card__more"
        open={target.connectTo.trim() !== '' || target.unixSocket.trim() !== ''}
        data-testid={`target-route-${index}`}
      >
        <summary>
          Advanced: where to connect
          {target.connectTo.trim() !== '' && <span className="pill">connect to</span>}
          {target.unixSocket.trim() !== '' && <span className="pill">unix socket</span>}
        </summary>
        <TextField
          label="Connect to"
          path={`${base}.connectTo`}
          value={target.connectTo}
          placeholder="example.com:443:127.0.0.1:8443"
          hint="curl's --connect-to HOST:PORT:ADDRESS:PORT (several: separate by spaces): Host, SNI and the certificate check keep the URL's name"
          testId={`target-connect-to-${index}`}
          onChange={(connectTo) => set({ connectTo })}
        />
        <TextField
          label="Unix socket"
          path={`${base}.unixSocket`}
          value={target.unixSocket}
          placeholder="/run/app.sock"
          hint="send the requests over this socket on the host (HTTP/1.1, or h2c with HTTP/2); the URL gives Host and path"
          testId={`target-unix-socket-${index}`}
          onChange={(unixSocket) => set({ unixSocket })}
        />
      </details>
    </div>
  );
}
