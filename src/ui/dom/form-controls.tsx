import { SelectBox } from './select-box';
import { useDescribed, type ControlProps } from './text-field';

interface SelectFieldProps extends ControlProps {
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  /** The label of the empty choice (the field is required when it is refused). */
  placeholder: string;
}

/** A labelled select: the same React Aria select as the filter bars, with its hint and error. */
export function SelectField(props: SelectFieldProps) {
  return (
    <div className="field">
      <SelectBox
        label={props.label}
        name={props.name}
        options={props.options}
        value={props.value ? [props.value] : []}
        onChange={(next) => props.onChange(next[0] ?? '')}
        placeholder={props.placeholder}
        emptyOption={props.placeholder}
        description={props.description}
        error={props.error}
        isDisabled={props.disabled}
        {...(props.onBlur ? { onBlur: props.onBlur } : {})}
      />
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
