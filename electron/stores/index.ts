import path from 'node:path';
import type { StoreProblem } from '../../shared/presets.ts';
import { builtInPresets } from './built-in-presets.ts';
import { openHistoryStore, type HistoryStore } from './history-store.ts';
import { PresetStore, type OpenPresetBackend } from './preset-store.ts';
import type { SecretCipher } from './secrets.ts';

export interface Stores {
  presets: PresetStore;
  history: HistoryStore;
  /** Where presets.json and history/ live. */
  dataDir: string;
  /** Everything either store set aside or could not decrypt, for the UI to show. */
  problems(): StoreProblem[];
}

export interface OpenStoresOptions {
  /** The data directory (--data-dir; the desktop's userData); conf's default directory when omitted. */
  dataDir?: string;
  /** Desktop only: safeStorage (electron-adapter.ts). */
  cipher?: SecretCipher | null;
  /** Desktop only: electron-store instead of conf (same file format). */
  backend?: OpenPresetBackend;
  /** Keep secret header values of saved runs as plain text when there is no cipher (else cleared). */
  allowPlaintextSecretsInHistory?: boolean;
  now?: () => Date;
}

/**
 * Opens the preset store (with the built-in presets) and the run history side by side:
 * <dataDir>/presets.json and <dataDir>/history/. The web host and the CLI call this
 * directly; the desktop calls openDesktopStores() in electron-adapter.ts.
 */
export async function openStores(opts: OpenStoresOptions = {}): Promise<Stores> {
  const presets = new PresetStore({
    dir: opts.dataDir,
    backend: opts.backend,
    cipher: opts.cipher ?? null,
    builtIns: builtInPresets(),
    now: opts.now,
  });
  const dataDir = path.dirname(presets.path);
  const history = await openHistoryStore({
    dir: path.join(dataDir, 'history'),
    cipher: opts.cipher ?? null,
    allowPlaintextSecrets: opts.allowPlaintextSecretsInHistory,
    now: opts.now,
  });
  return {
    presets,
    history,
    dataDir,
    problems: () => [...presets.problems(), ...history.problems()],
  };
}
