import { app, safeStorage } from 'electron';
import { DesktopSettingsStore } from './desktop-settings.ts';
import { openStores, type Stores } from './index.ts';
import type { SecretCipher } from './secrets.ts';

/*
 * The desktop's only Electron-bound store code: safeStorage as the SecretCipher and the
 * userData folder as the data directory. All logic lives in the Electron-free core.
 */

/**
 * Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet). On Linux without a keyring
 * safeStorage falls back to "basic_text", a hard-coded key: that is plain text in effect,
 * so it counts as unavailable and the store asks before writing secrets.
 */
export const safeStorageCipher: SecretCipher = {
  available: () =>
    safeStorage.isEncryptionAvailable() &&
    (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'),
  encrypt: (text) => safeStorage.encryptString(text).toString('base64'),
  decrypt: (data) => safeStorage.decryptString(Buffer.from(data, 'base64')),
};

/** The desktop's stores in app.getPath('userData'). Call after app 'ready' (safeStorage needs it). */
export function openDesktopStores(opts: { allowPlaintextSecretsInHistory?: boolean } = {}): Promise<Stores> {
  return openStores({
    dataDir: app.getPath('userData'),
    cipher: safeStorageCipher,
    allowPlaintextSecretsInHistory: opts.allowPlaintextSecretsInHistory,
    settings: (dir) => new DesktopSettingsStore({ dir }),
  });
}
