/**
 * Form helpers every form shares (TanStack Form with zod): a schema's issues as field errors, a
 * field's props for a labelled control with its error once touched or submitted, the form-wide
 * status (changed, valid, submitted), the labels of changed fields and an upload error's text.
 */
import { useStore } from '@tanstack/react-form';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { z } from 'zod/mini';
import type { FileError } from '../../../core/files/validate';

/** `{ field: message }` for the first issue of each body field; `rename` maps body fields to form fields. */
export function schemaErrors(
  schema: z.core.$ZodType,
  body: unknown,
  t: TFunction,
  rename: Record<string, string> = {},
): Record<string, string> {
  const result = z.safeParse(schema, body);
  const errors: Record<string, string> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    const name = rename[field] ?? field;
    if (errors[name]) continue;
    if (issue.code === 'too_small') errors[name] = t('assetEditor.required');
    else if (issue.code === 'too_big')
      errors[name] = t('assetEditor.tooLong', { max: String(issue.maximum) });
    else if (issue.code === 'invalid_value') errors[name] = t('assetEditor.choose');
    else errors[name] = issue.message;
  }
  return errors;
}

/** What fieldBinding reads from a TanStack Form field. */
export interface BoundField<V> {
  name: string;
  state: { value: V; meta: { errors: unknown[]; isTouched: boolean } };
  handleChange: (value: V) => void;
  handleBlur: () => void;
}

/**
 * The props a labelled control takes from a form field: name, value, change and blur, and its
 * first error once the field was touched or the form submitted (spec §5).
 */
export function fieldBinding<V>(field: BoundField<V>, submitted: boolean) {
  const { errors, isTouched } = field.state.meta;
  const error = errors[0];
  return {
    name: field.name,
    value: field.state.value,
    onChange: field.handleChange,
    onBlur: field.handleBlur,
    error: (isTouched || submitted) && typeof error === 'string' ? error : null,
  };
}

/** The form-wide state an entity form shows, read from a TanStack Form store. */
interface FormStatusStore {
  store: Parameters<
    typeof useStore<{
      isDefaultValue: boolean;
      isValid: boolean;
      submissionAttempts: number;
      fieldMeta: Partial<Record<string, { isDefaultValue: boolean }>>;
    }>
  >[0];
}

/**
 * Whether the form differs from what was loaded, which fields do (`changed`, by name), whether
 * it is valid and was submitted, and `bind`, which turns a field into a labelled control's props
 * (errors show once touched or submitted).
 */
export function useFormStatus(form: FormStatusStore) {
  const isDirty = useStore(form.store, (state) => !state.isDefaultValue);
  const isValid = useStore(form.store, (state) => state.isValid);
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);
  // A string, so that the selection changes only when the set of changed fields does.
  const changedKey = useStore(form.store, (state) =>
    Object.entries(state.fieldMeta)
      .flatMap(([name, meta]) => (meta && !meta.isDefaultValue ? [name] : []))
      .join('\n'),
  );
  const changed = useMemo(() => (changedKey === '' ? [] : changedKey.split('\n')), [changedKey]);
  const bind = <V>(field: BoundField<V>) => fieldBinding(field, submitted);
  return { isDirty, isValid, submitted, changed, bind };
}

/**
 * The labels of the changed fields, once each: a file field's `XFile` and `XUrl` are both the
 * field X (`labels` names it under `XUrl`, as the conflict panel does).
 */
export function changedLabels(names: readonly string[], labels: Record<string, string>) {
  const shown = names.map((name) => {
    const base = name.replace(/(File|Url)$/, '');
    return labels[name] ?? labels[`${base}Url`] ?? labels[base] ?? name;
  });
  return [...new Set(shown)];
}

/** The translated text of an upload error. */
export const fileErrorText = (error: FileError, t: TFunction) => t(error.key, error.values);
