import { useDescribed, type ControlProps } from './text-field';

interface SelectFieldProps extends ControlProps {
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  /** The label of the empty choice (the field is required when it is refused). */
  placeholder: string;
}

/** A labelled native select: every platform makes it accessible and keyboard friendly. */
export function SelectField(props: SelectFieldProps) {
  const { control, notes } = useDescribed(props);
  return (
    <div className="field">
      <label htmlFor={control.id}>{props.label}</label>
      <select
        {...control}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        <option value="">{props.placeholder}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {notes}
    </div>
  );
}

interface TextAreaFieldProps extends ControlProps {
  value: string;
  onChange: (value: string) => void;
  rows?: number;
}

/** A labelled multi-line text input. */
export function TextAreaField(props: TextAreaFieldProps) {
  const { control, notes } = useDescribed(props);
  return (
    <div className="field">
      <label htmlFor={control.id}>{props.label}</label>
      <textarea
        {...control}
        rows={props.rows ?? 3}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {notes}
    </div>
  );
}

interface CheckboxFieldProps extends ControlProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** A labelled checkbox (a toggle: each click flips its boolean). */
export function CheckboxField(props: CheckboxFieldProps) {
  const { control, notes } = useDescribed(props);
  return (
    <div className="field checkbox-field">
      <input
        {...control}
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      <label htmlFor={control.id}>{props.label}</label>
      {notes}
    </div>
  );
}

/** Moves focus to the first control marked invalid inside `root`, if any. */
export function focusFirstInvalid(root: HTMLElement | null): boolean {
  const target = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
  target?.focus();
  return target !== null && target !== undefined;
}
