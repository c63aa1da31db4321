import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CloseIcon } from './icons.tsx';
import './Dialog.css';

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  testId?: string;
}

/** A modal dialog on the native <dialog> element: focus trap, Esc to close, backdrop. */
export function Dialog({ title, onClose, children, footer, wide, testId }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={`dialog${wide ? ' dialog--wide' : ''}`}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header className="dialog__head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      <div className="dialog__body">{children}</div>
      {footer && <footer className="dialog__foot">{footer}</footer>}
    </dialog>
  );
}

/** Asks for a name (save as, rename); submit with Enter. */
export function NameDialog({
  title,
  label,
  initial,
  action,
  onSubmit,
  onClose,
  error,
  testId,
}: {
  title: string;
  label: string;
  initial: string;
  action: string;
  onSubmit: (name: string) => void;
  onClose: () => void;
  error?: string | null;
  testId?: string;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  useEffect(() => inputRef.current?.select(), []);
  const submit = () => onSubmit(inputRef.current?.value ?? '');
  return (
    <Dialog
      title={title}
      onClose={onClose}
      testId={testId}
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn--primary" data-testid="dialog-submit" onClick={submit}>
            {action}
          </button>
        </>
      }
    >
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        ref={inputRef}
        className="input"
        defaultValue={initial}
        data-testid="dialog-name"
        onKeyDown={(e) => {
          if (e.key === 'Enter') submit();
        }}
      />
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
