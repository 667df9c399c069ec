import { useId, type ReactNode } from 'react';

/** What every labelled control shares: its hint and error are tied to it by aria-describedby. */
export interface ControlProps {
  name: string;
  label: string;
  description?: string | undefined;
  /** Shown, and the control marked invalid, when set. */
  error?: string | null | undefined;
  disabled?: boolean | undefined;
  onBlur?: () => void;
}

/**
 * The ids and attributes a control and its hint and error share. The hint shows only while
 * there is no error: the error says the same rule as a correction ("At least 12 characters."
 * above "Use at least 12 characters" read twice).
 */
export function useDescribed(props: ControlProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const hint = props.error ? undefined : props.description;
  const describedBy = [hint && descriptionId, props.error && errorId].filter(Boolean).join(' ');
  const control = {
    id,
    name: props.name,
    disabled: props.disabled,
    onBlur: props.onBlur,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };
  const notes: ReactNode = (
    <>
      {hint && (
        <p className="field-description" id={descriptionId}>
          {hint}
        </p>
      )}
      {props.error && (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      )}
    </>
  );
  return { control, notes };
}

interface TextFieldProps extends ControlProps {
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string | undefined;
  inputMode?: 'numeric' | 'email' | 'text' | undefined;
  autoFocus?: boolean | undefined;
  placeholder?: string | undefined;
}

/**
 * A labelled text input with its hint and error tied to it by aria-describedby. Plain
 * elements on purpose: the account screens load before everything else, and the platform's
 * own input and label are fully accessible.
 */
export function TextField(props: TextFieldProps) {
  const { control, notes } = useDescribed(props);
  return (
    <div className="field">
      <label htmlFor={control.id}>{props.label}</label>
      <input
        {...control}
        type={props.type ?? 'text'}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        autoFocus={props.autoFocus}
        placeholder={props.placeholder}
      />
      {notes}
    </div>
  );
}
