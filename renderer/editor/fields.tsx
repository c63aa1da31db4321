import { useId, type ReactNode } from 'react';
import type { DurationUnit } from '../../shared/model/duration.ts';
import { durationProblem } from './fieldFixes.ts';
import { useFieldIssue } from './issues.ts';
import { CloseIcon } from '../components/icons.tsx';
import './fields.css';

interface FieldShellProps {
  label: string;
  /**
   * Whose field it is, read before the label by screen readers only ("Target 2" before "URL"):
   * a form with a row per server has one accessible name per field, not five "URL"s.
   */
  context?: string;
  /** Schema path ("targets.0.url"): its validation message is shown under the field. */
  path?: string;
  hint?: string;
  className?: string;
  /** The control's element id, when something outside the form moves the focus to it. */
  id?: string;
  /** What the field knows better than the schema about its text: said instead of the schema's message. */
  problem?: string | null;
  /** A correction to offer beside the message ("Use http://localhost:8181"). */
  fix?: FieldFix | null;
  children: (control: {
    id: string;
    invalid: boolean;
    describedBy: string | undefined;
    touch: () => void;
  }) => ReactNode;
}

/** A correction a field offers for what was typed: the button's words and what it does. */
export interface FieldFix {
  label: string;
  apply: () => void;
  testId?: string;
}

/** Label, control and the field's own validation message, wired for screen readers. */
export function Field({
  label,
  context,
  path,
  hint,
  className,
  id: fixedId,
  problem,
  fix,
  children,
}: FieldShellProps) {
  const generated = useId();
  const id = fixedId ?? generated;
  const issue = useFieldIssue(path);
  const { touch } = issue;
  const message = issue.message === undefined ? undefined : (problem ?? issue.message);
  const msgId = `${id}-msg`;
  const hintId = `${id}-hint`;
  const describedBy = [message ? msgId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${message ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={id}>
        {context && <span className="visually-hidden">{context} </span>}
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
      {message && fix && (
        <button type="button" className="link-btn field__fix" data-testid={fix.testId} onClick={fix.apply}>
          {fix.label}
        </button>
      )}
    </div>
  );
}

interface TextFieldProps {
  label: string;
  /** Read before the label by screen readers only (see Field). */
  context?: string;
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
  /** The input's element id (see Field). */
  id?: string;
  /** A duration field: text that is no duration gets a message saying what it takes. */
  duration?: DurationUnit;
  /** A correction for what was typed, offered with the field's message. */
  fixOf?: (value: string) => { label: string; value: string } | null;
}

export function TextField(props: TextFieldProps) {
  const { label, value, onChange, path, hint, placeholder, numeric, unit, testId, className, autoFocus } =
    props;
  const fixed = props.fixOf?.(value) ?? null;
  return (
    <Field
      label={label}
      context={props.context}
      path={path}
      hint={hint}
      className={className}
      id={props.id}
      problem={props.duration ? durationProblem(value, props.duration) : null}
      fix={
        fixed && {
          label: fixed.label,
          apply: () => onChange(fixed.value),
          testId: testId ? `${testId}-fix` : undefined,
        }
      }
    >
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
            // Tabbing through an empty field is no edit: it turns red only once a run is tried.
            onBlur={() => {
              if (value !== '') touch();
            }}
          />
          {unit && <span className="input-unit">{unit}</span>}
        </div>
      )}
    </Field>
  );
}

/** The keys of a draft object that hold free text (numbers are typed as text too), not a union of literals. */
export type TextKeys<T> = {
  [K in keyof T]-?: T[K] extends string ? (string extends T[K] ? K : never) : never;
}[keyof T] &
  string;

/** One text field of a draft object: the key it edits, and how it is shown. */
export interface FieldSpec<K extends string> extends Omit<TextFieldProps, 'value' | 'onChange'> {
  key: K;
}

type SpecExtras<K extends string> = Omit<FieldSpec<K>, 'key' | 'label' | 'path' | 'numeric'>;

/** A text field's spec. */
export function textField<K extends string>(
  key: K,
  label: string,
  path: string,
  more: SpecExtras<K> = {},
): FieldSpec<K> {
  return { key, label, path, ...more };
}

/** A numeric field's spec (a text box too, so a typo reaches the schema and gets its message). */
export function numberField<K extends string>(
  key: K,
  label: string,
  path: string,
  more: SpecExtras<K> = {},
): FieldSpec<K> {
  return { key, label, path, numeric: true, ...more };
}

/** A duration field's spec: seconds, or as the CLI takes it (`1m30s`, `500ms`). */
export function durationField<K extends string>(
  key: K,
  label: string,
  path: string,
  more: SpecExtras<K> = {},
): FieldSpec<K> {
  return { key, label, path, unit: 's', hint: 'or 1m30s, 500ms', duration: 's', ...more };
}

interface TextFieldsProps<K extends string> {
  fields: readonly FieldSpec<K>[];
  values: Readonly<Record<K, string>>;
  /** An edit, as a patch of the draft: { [key]: text }. */
  onChange: (patch: Partial<Record<K, string>>) => void;
  /** Wraps the fields in a div of this class (a grid); without it they stand in their parent. */
  className?: string;
}

/** Text fields bound to keys of one draft, so a form lists its fields as data. */
export function TextFields<K extends string>({ fields, values, onChange, className }: TextFieldsProps<K>) {
  const items = fields.map(({ key, ...props }) => (
    <TextField
      key={key}
      {...props}
      value={values[key]}
      // The only cast: a computed key widens to string, but it is the spec's own key K.
      onChange={(text) => onChange({ [key]: text } as Partial<Record<K, string>>)}
    />
  ));
  return className ? <div className={className}>{items}</div> : <>{items}</>;
}

/** The cross that removes one row of a list (a target, a header, a threshold). */
export function RemoveButton({
  label,
  className,
  disabled,
  testId,
  onClick,
}: {
  label: string;
  className?: string;
  disabled?: boolean;
  testId?: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`icon-btn${className ? ` ${className}` : ''}`}
      aria-label={label}
      title={label}
      disabled={disabled}
      data-testid={testId}
      onClick={onClick}
    >
      <CloseIcon />
    </button>
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
