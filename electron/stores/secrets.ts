import { type SecretOptions } from '../../shared/records/preset-summary.ts';
import { isSecretHeader } from '../../shared/model/secret-headers.ts';
import { forEachHeader, jsonCopy, SEALED, type HeaderLike } from '../../shared/model/secret-headers.ts';

export { clearSecrets, countSecrets, jsonCopy } from '../../shared/model/secret-headers.ts';

/**
 * Encrypts secret header values for storage. The desktop implements it with Electron's
 * safeStorage (electron-adapter.ts); the web host and the CLI have none, so their stores
 * can only write plain text and must ask first.
 */
export interface SecretCipher {
  /** True when values can be encrypted here (e.g. the OS keychain is reachable). */
  available(): boolean;
  /** Plain text in, printable ciphertext (base64) out. */
  encrypt(text: string): string;
  /** The inverse of encrypt(); throws when the value cannot be decrypted here. */
  decrypt(text: string): string;
}

/** Encrypts every secret value in place (the tree must be a copy). */
export function sealSecrets(tree: unknown, cipher: SecretCipher): void {
  forEachHeader(tree, (h) => {
    if (!isSecretHeader(h.name) || h.value === '') return;
    h[SEALED] = cipher.encrypt(h.value);
    h.value = '';
  });
}

/**
 * Decrypts sealed values in place (the tree must be a copy). A value that cannot be
 * decrypted here (no cipher, another machine's key) is left empty; returns how many.
 */
export function unsealSecrets(tree: unknown, cipher: SecretCipher | null): { failed: number } {
  let failed = 0;
  forEachHeader(tree, (h) => {
    if (!(SEALED in h)) return;
    const sealed = h[SEALED];
    delete h[SEALED];
    h.value = '';
    if (typeof sealed !== 'string' || cipher === null || !cipher.available()) {
      failed++;
      return;
    }
    try {
      h.value = cipher.decrypt(sealed);
    } catch {
      failed++;
    }
  });
  return { failed };
}

/**
 * A stored tree as a reader without the key sees it (a copy; sealed values read as empty),
 * for validating what is on disk without decrypting it.
 */
export function asStored<T>(tree: T): T {
  const copy = jsonCopy(tree);
  unsealSecrets(copy, null);
  return copy;
}

/**
 * Copies the sealed values of one tree onto another holding the same headers in the same
 * order (a preset before and after a migration), for values this machine cannot decrypt:
 * they stay stored, sealed, instead of being lost on the rewrite.
 */
export function transplantSealed(from: unknown, to: unknown): void {
  const src: HeaderLike[] = [];
  const dst: HeaderLike[] = [];
  forEachHeader(from, (h) => src.push(h));
  forEachHeader(to, (h) => dst.push(h));
  if (src.length !== dst.length)
    throw new Error('the migration changed the headers; sealed values cannot follow');
  src.forEach((h, i) => {
    const d = dst[i]!;
    if (!(SEALED in h)) return;
    d[SEALED] = h[SEALED];
    d.value = '';
  });
}

/**
 * What to do with secret values before writing: nothing to do, encrypt them, write them
 * as plain text (the user agreed), clear them (the user asked), or ask the user.
 */
export type SecretHandling = 'none' | 'seal' | 'plain' | 'omit' | 'ask';

/** cipher null: the destination is plain text whatever the platform (an exported file). */
export function decideSecretHandling(
  secretCount: number,
  cipher: SecretCipher | null,
  opts: SecretOptions,
): SecretHandling {
  if (secretCount === 0) return 'none';
  if (opts.omitSecrets === true) return 'omit';
  if (cipher?.available() === true) return 'seal';
  if (opts.allowPlaintextSecrets === true) return 'plain';
  return 'ask';
}
