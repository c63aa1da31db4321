import { useId, type ReactNode } from 'react';
import { useFieldIssue } from '../editor/issues.ts';

interface FieldShellProps {
  label: string;
  /** Schema path ("targets.0.url"): its validation message is shown under the field. */
  path?: string;
  hint?: string;
  className?: string;
  children: (control: {
    id: string;
    invalid: boolean;
    describedBy: string | undefined;
    touch: () => void;
  }) => ReactNode;
}

/** Label, control and the field's own validation message, wired for screen readers. */
export function Field({ label, path, hint, className, children }: FieldShellProps) {
  const id = useId();
  const { message, touch } = useFieldIssue(path);
  const msgId = `${id}-msg`;
  const hintId = `${id}-hint`;
  const describedBy = [message ? msgId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${message ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({ id, invalid: message !== undefined, describedBy, touch })}
      {hint && !message && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {message && (
        <p className="field__error" id={msgId} role="alert" data-testid={path ? `error-${path}` : undefined}>
          {message}
        </p>
      )}
    </div>
  );
}

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  path?: string;
  hint?: string;
  placeholder?: string;
  /** Numeric fields are text boxes too, so a typo reaches the schema and gets its message. */
  numeric?: boolean;
  unit?: string;
  testId?: string;
  className?: string;
  autoFocus?: boolean;
}

export function TextField(props: TextFieldProps) {
  const { label, value, onChange, path, hint, placeholder, numeric, unit, testId, className, autoFocus } =
    props;
  return (
    <Field label={label} path={path} hint={hint} className={className}>
      {({ id, invalid, describedBy, touch }) => (
        <div className={`input-wrap${unit ? ' input-wrap--unit' : ''}`}>
          <input
            id={id}
            className="input"
            type="text"
            inputMode={numeric ? 'decimal' : undefined}
            spellCheck={false}
            autoComplete="off"
            autoFocus={autoFocus}
            value={value}
            placeholder={placeholder}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            data-testid={testId}
            onChange={(e) => {
              onChange(e.target.value);
              touch();
            }}
            onBlur={touch}
          />
          {unit && <span className="input-unit">{unit}</span>}
        </div>
      )}
    </Field>
  );
}

interface SelectFieldProps<T extends string> {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  testId?: string;
  className?: string;
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  testId,
  className,
}: SelectFieldProps<T>) {
  return (
    <Field label={label} className={className}>
      {({ id }) => (
        <select
          id={id}
          className="input select"
          value={value}
          data-testid={testId}
          onChange={(e) => {
            const next = options.find((o) => o.value === e.target.value);
            if (next) onChange(next.value);
          }}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

interface SegmentedProps<T extends string> {
  label: string;
  value: T;
  options: readonly { value: T; label: string; title?: string }[];
  onChange: (value: T) => void;
  testId?: string;
}

/** A small exclusive choice (closed/open, HTTP/1.1/h2) as a row of toggle buttons. */
export function Segmented<T extends string>({ label, value, options, onChange, testId }: SegmentedProps<T>) {
  return (
    <div className="field">
      <span className="field__label">{label}</span>
      <div className="segmented" role="radiogroup" aria-label={label} data-testid={testId}>
        {options.map((o) => (
          <button
            key={o.value}
            type="button"
            role="radio"
            aria-checked={o.value === value}
            title={o.title}
            className={`segmented__item${o.value === value ? ' is-active' : ''}`}
            data-testid={testId ? `${testId}-${o.value}` : undefined}
            onClick={() => onChange(o.value)}
          >
            {o.label}
          </button>
        ))}
      </div>
    </div>
  );
}

interface ToggleProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
  testId?: string;
}

export function Toggle({ label, checked, onChange, hint, testId }: ToggleProps) {
  const id = useId();
  return (
    <div className="toggle-field">
      <label className="toggle" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={checked}
          data-testid={testId}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span className="toggle__track" aria-hidden="true">
          <span className="toggle__thumb" />
        </span>
        <span className="toggle__label">{label}</span>
      </label>
      {hint && <p className="field__hint">{hint}</p>}
    </div>
  );
}
