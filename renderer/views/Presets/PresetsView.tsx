import { useCallback, useRef, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import type { Preset } from '../../../shared/records/presets.ts';
import type { PresetSummary } from '../../../shared/records/preset-summary.ts';
import { ActionButtons } from '../../components/ActionButtons.tsx';
import { Alert } from '../../components/Alert.tsx';
import { NameDialog } from '../../components/Dialog.tsx';
import { StoreProblems } from '../../components/StoreProblems.tsx';
import { formatWhen } from '../../components/time.ts';
import { useSecretConsent } from '../../components/useConsent.tsx';
import { useQuery } from '../../components/useQuery.ts';
import { MIME } from '../../../shared/export/files.ts';
import { downloadText } from '../../lib/download.ts';
import { errorText } from '../../lib/errors.ts';
import './presets.css';

interface PresetsViewProps {
  api: TrebuchetApi;
  /** Opens a preset in its editor (a scenario in the run editor, a comparison in the comparison editor). */
  onOpen: (preset: Preset) => void;
}

type Editing = { kind: 'rename' | 'duplicate'; preset: PresetSummary } | null;

/** The preset library: built-ins first (read-only), then the user's; import and export as JSON files. */
export function PresetsView({ api, onOpen }: PresetsViewProps) {
  const load = useCallback(() => api.presets.list(), [api]);
  const list = useQuery(load);
  const { withConsent, dialog: consentDialog } = useSecretConsent();
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const fail = (e: unknown) => setNotice({ kind: 'error', text: errorText(e) });

  const open = (p: PresetSummary) => {
    api.presets.get({ id: p.id }).then(({ preset }) => onOpen(preset), fail);
  };

  const exportPreset = (p: PresetSummary) => {
    withConsent((options) => api.presets.export({ id: p.id, ...options })).then((out) => {
      if (!out?.ok) return;
      downloadText(out.text, out.fileName, MIME.json);
      setNotice({ kind: 'ok', text: `Exported "${p.name}" as ${out.fileName}.` });
    }, fail);
  };

  const importFile = (file: File) => {
    file
      .text()
      .then((text) => withConsent((options) => api.presets.import({ text, ...options })))
      .then((out) => {
        if (!out?.ok) return;
        setNotice({ kind: 'ok', text: `Imported "${out.preset.name}".` });
        list.reload();
      }, fail);
  };

  const remove = (p: PresetSummary) => {
    if (!window.confirm(`Delete the preset "${p.name}"? This cannot be undone.`)) return;
    api.presets.delete({ id: p.id }).then(() => {
      setNotice({ kind: 'ok', text: `Deleted "${p.name}".` });
      list.reload();
    }, fail);
  };

  const submitName = (name: string) => {
    if (!editing) return;
    const { kind, preset } = editing;
    const call =
      kind === 'rename'
        ? api.presets.rename({ id: preset.id, name })
        : api.presets.duplicate({ id: preset.id, name });
    call.then(
      (saved) => {
        setEditing(null);
        setEditError(null);
        setNotice({
          kind: 'ok',
          text: kind === 'rename' ? `Renamed to "${saved.name}".` : `Saved a copy as "${saved.name}".`,
        });
        list.reload();
      },
      (e: unknown) => setEditError(errorText(e)),
    );
  };

  const presets = list.data?.presets ?? [];
  const builtIns = presets.filter((p) => p.source === 'built-in');
  const mine = presets.filter((p) => p.source === 'user');

  return (
    <main className="view" data-testid="presets-view">
      <header className="view__head">
        <div>
          <h1>Presets</h1>
          <p className="muted small">
            Scenarios and comparisons to run again. Stored in{' '}
            <code data-testid="presets-file">{list.data?.file ?? '…'}</code>
            {list.data?.secretStorage === 'encrypted'
              ? '; secret header values are encrypted with the system keychain.'
              : '; secret header values are kept only if you agree to plain text.'}
          </p>
        </div>
        <div className="view__actions">
          <input
            ref={fileInput}
            type="file"
            accept=".json,application/json"
            hidden
            data-testid="preset-import-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) importFile(file);
            }}
          />
          <button
            type="button"
            className="btn btn--secondary"
            data-testid="preset-import"
            onClick={() => fileInput.current?.click()}
          >
            Import JSON…
          </button>
        </div>
      </header>

      <StoreProblems problems={list.data?.problems ?? []} />
      <Alert tone="error">{list.error}</Alert>
      <Alert tone={notice?.kind === 'error' ? 'error' : 'ok'} testId="presets-notice">
        {notice?.text}
      </Alert>

      <section className="card list-card">
        <h2 className="list-card__title">Yours</h2>
        {mine.length === 0 ? (
          <p className="muted small empty-note" data-testid="presets-empty">
            No presets yet. Use <strong>Save as preset</strong> beside a scenario or a comparison, duplicate a
            built-in one, or import a file.
          </p>
        ) : (
          <ul className="item-list" data-testid="presets-mine">
            {mine.map((p) => (
              <PresetRow
                key={p.id}
                preset={p}
                onOpen={() => open(p)}
                onRename={() => setEditing({ kind: 'rename', preset: p })}
                onDuplicate={() => setEditing({ kind: 'duplicate', preset: p })}
                onExport={() => exportPreset(p)}
                onDelete={() => remove(p)}
              />
            ))}
          </ul>
        )}
      </section>

      <section className="card list-card">
        <h2 className="list-card__title">
          Built in <span className="muted small">· the seed articles' experiments, read-only</span>
        </h2>
        <ul className="item-list" data-testid="presets-builtin">
          {builtIns.map((p) => (
            <PresetRow
              key={p.id}
              preset={p}
              onOpen={() => open(p)}
              onDuplicate={() => setEditing({ kind: 'duplicate', preset: p })}
              onExport={() => exportPreset(p)}
            />
          ))}
        </ul>
      </section>

      {editing && (
        <NameDialog
          title={editing.kind === 'rename' ? 'Rename preset' : 'Duplicate preset'}
          label="Name"
          initial={editing.kind === 'rename' ? editing.preset.name : `${editing.preset.name} (copy)`}
          action={editing.kind === 'rename' ? 'Rename' : 'Duplicate'}
          error={editError}
          testId="preset-name-dialog"
          onSubmit={submitName}
          onClose={() => {
            setEditing(null);
            setEditError(null);
          }}
        />
      )}
      {consentDialog}
    </main>
  );
}

interface PresetRowProps {
  preset: PresetSummary;
  onOpen: () => void;
  onDuplicate: () => void;
  onExport: () => void;
  onRename?: () => void;
  onDelete?: () => void;
}

const KIND_LABELS: Record<PresetSummary['kind'], string> = {
  run: 'Scenario',
  comparison: 'Comparison',
  capacity: 'Capacity',
};

function PresetRow({ preset: p, onOpen, onDuplicate, onExport, onRename, onDelete }: PresetRowProps) {
  const builtIn = p.source === 'built-in';
  return (
    <li className="item" data-testid="preset-row" data-preset-id={p.id}>
      <div className="item__main">
        <div className="item__title">
          <span className={`kind kind--${p.kind}`}>{KIND_LABELS[p.kind]}</span>
          <span className="item__name" data-testid="preset-name">
            {p.name}
          </span>
          {builtIn && <span className="pill">built-in</span>}
          {p.secretCount > 0 && (
            <span className="pill" title="Holds secret header values">
              {p.secretsUnavailable
                ? 'secrets unavailable'
                : `${p.secretCount} secret${p.secretCount === 1 ? '' : 's'}`}
            </span>
          )}
        </div>
        {p.description && <p className="item__desc">{p.description}</p>}
        <p className="item__meta muted small">
          {p.targets.join(' · ')}
          {!builtIn && <> · updated {formatWhen(p.updatedAt)}</>}
        </p>
      </div>
      <ActionButtons
        className="item__actions"
        size="sm"
        actions={[
          { label: 'Open', testId: 'preset-open', look: 'primary', onClick: onOpen },
          {
            label: builtIn ? 'Duplicate to edit' : 'Duplicate',
            testId: 'preset-duplicate',
            look: 'secondary',
            onClick: onDuplicate,
          },
          onRename && { label: 'Rename', testId: 'preset-rename', look: 'ghost', onClick: onRename },
          { label: 'Export', testId: 'preset-export', look: 'ghost', onClick: onExport },
          onDelete && { label: 'Delete', testId: 'preset-delete', look: 'danger', onClick: onDelete },
        ]}
      />
    </li>
  );
}
