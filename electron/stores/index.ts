import envPaths from 'env-paths';
import path from 'node:path';
import type { StoreProblem } from '../../shared/records/preset-summary.ts';
import { builtInPresets } from './built-in-presets.ts';
import { openHistoryStore, type HistoryStore } from './history-store.ts';
import { PresetStore } from './preset-store.ts';
import type { SecretCipher } from './secrets.ts';
import { FileSettingsStore, type SettingsStore } from './settings-store.ts';

/** The name the default data directory is made of: ~/.config/trebuchet-nodejs on Linux. */
const APP_NAME = 'trebuchet';

/**
 * Where the web host and the CLI keep presets and history without --data-dir: the config
 * folder earlier versions used through conf (env-paths with conf's "nodejs" suffix).
 */
export function defaultDataDir(): string {
  return envPaths(APP_NAME, { suffix: 'nodejs' }).config;
}

export interface Stores {
  presets: PresetStore;
  history: HistoryStore;
  /** The UI's settings (drafts, view, columns; the desktop's window): one store per host. */
  settings: SettingsStore;
  /** Where presets/ and history/ live. */
  dataDir: string;
  /** Everything either store set aside or could not decrypt, for the UI to show. */
  problems(): StoreProblem[];
}

export interface OpenStoresOptions {
  /** The data directory (--data-dir; the desktop's userData); defaultDataDir() when omitted. */
  dataDir?: string;
  /** Desktop only: safeStorage (electron-adapter.ts). */
  cipher?: SecretCipher | null;
  /** Keep secret header values of saved runs as plain text when there is no cipher (else cleared). */
  allowPlaintextSecretsInHistory?: boolean;
  now?: () => Date;
  /** The desktop's electron-store (electron-adapter.ts); the web host's file in dataDir otherwise. */
  settings?: (dataDir: string) => SettingsStore;
}

/**
 * Opens the preset store (with the built-in presets) and the run history side by side:
 * <dataDir>/presets/ and <dataDir>/history/, and the host's settings. The web host and the CLI call this directly;
 * the desktop calls openDesktopStores() in electron-adapter.ts.
 */
export async function openStores(opts: OpenStoresOptions = {}): Promise<Stores> {
  const dataDir = opts.dataDir ?? defaultDataDir();
  const presets = new PresetStore({
    dir: dataDir,
    cipher: opts.cipher ?? null,
    builtIns: builtInPresets(),
    now: opts.now,
  });
  const history = await openHistoryStore({
    dir: path.join(dataDir, 'history'),
    cipher: opts.cipher ?? null,
    allowPlaintextSecrets: opts.allowPlaintextSecretsInHistory,
    now: opts.now,
  });
  const settings = opts.settings?.(dataDir) ?? new FileSettingsStore({ dir: dataDir, now: opts.now });
  return {
    presets,
    history,
    settings,
    dataDir,
    problems: () => [...presets.problems(), ...history.problems(), ...settings.problems()],
  };
}
