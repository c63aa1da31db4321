import { useCallback, useState, type ReactNode } from 'react';
import type { SecretOptions } from '../../shared/records/preset-summary.ts';
import { Dialog } from './Dialog.tsx';

type NeedsConsent = { ok: false; reason: 'secrets-need-consent'; message: string };

interface Pending {
  message: string;
  answer: (options: SecretOptions | null) => void;
}

/**
 * The secrets question of presets.save / import / export: the host answers
 * 'secrets-need-consent' with the question, this asks it, and the call is repeated with the
 * user's choice (keep as plain text, or leave the secrets out). null when the user cancels.
 */
export function useSecretConsent(): {
  withConsent: <T extends { ok: boolean }>(
    call: (options: SecretOptions) => Promise<T | NeedsConsent>,
  ) => Promise<T | null>;
  dialog: ReactNode;
} {
  const [pending, setPending] = useState<Pending | null>(null);

  const withConsent = useCallback(
    async <T extends { ok: boolean }>(call: (options: SecretOptions) => Promise<T | NeedsConsent>) => {
      const first = await call({});
      if (!isConsentQuestion(first)) return first;
      const options = await new Promise<SecretOptions | null>((answer) =>
        setPending({ message: first.message, answer }),
      );
      setPending(null);
      if (options === null) return null;
      const second = await call(options);
      return isConsentQuestion(second) ? null : second;
    },
    [],
  );

  const dialog = pending && (
    <Dialog
      title="Secret header values"
      testId="secrets-dialog"
      onClose={() => pending.answer(null)}
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={() => pending.answer(null)}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn--secondary"
            data-testid="secrets-omit"
            onClick={() => pending.answer({ omitSecrets: true })}
          >
            Leave them out
          </button>
          <button
            type="button"
            className="btn btn--danger"
            data-testid="secrets-plaintext"
            onClick={() => pending.answer({ allowPlaintextSecrets: true })}
          >
            Keep as plain text
          </button>
        </>
      }
    >
      <p>{pending.message}</p>
    </Dialog>
  );
  return { withConsent, dialog };
}

function isConsentQuestion(value: { ok: boolean } | NeedsConsent): value is NeedsConsent {
  return !value.ok && (value as Partial<NeedsConsent>).reason === 'secrets-need-consent';
}
