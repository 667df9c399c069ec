/**
 * What the record forms (useEntityForm) add to useSchemaForm: a create body schema's issues as
 * translated field errors, the labels of changed fields and an upload error's text.
 */
import type { TFunction } from 'i18next';
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
