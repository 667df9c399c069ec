import { useId } from 'react';

interface TextFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string | undefined;
  inputMode?: 'numeric' | 'email' | 'text' | undefined;
  autoFocus?: boolean | undefined;
  placeholder?: string | undefined;
  description?: string | undefined;
  /** Shown, and the input marked invalid, when set. */
  error?: string | null | undefined;
}

/**
 * A labelled text input with its hint and error tied to it by aria-describedby. Plain
 * elements on purpose: the account screens load before everything else, and the platform's
 * own input and label are fully accessible.
 */
export function TextField(props: TextFieldProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy = [props.description && descriptionId, props.error && errorId]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        autoFocus={props.autoFocus}
        placeholder={props.placeholder}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {props.description && (
        <p className="field-description" id={descriptionId}>
          {props.description}
        </p>
      )}
      {props.error && (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}
