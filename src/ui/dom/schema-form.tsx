import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod/mini';
import { ActionButton } from './action-button';
import { Alert } from './alert';
import { TextField } from './text-field';
import { useSchemaForm } from './use-schema-form';

export interface FieldSpec<Name extends string> {
  name: Name;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  description?: string;
  inputMode?: 'numeric' | 'email' | 'text';
  autoFocus?: boolean;
  placeholder?: string;
}

type StringRecord = Record<string, string>;

interface SchemaFormProps<Values extends StringRecord> {
  /** Accessible name of the form. */
  label: string;
  /** zod schema whose issue messages are i18n keys (`form.required`...). */
  schema: z.ZodMiniType<Values, Values>;
  defaultValues: Values;
  fields: FieldSpec<keyof Values & string>[];
  submitLabel: string;
  pendingLabel: string;
  onSubmit: (values: Values) => unknown;
  /** Pending work outside the submit promise (for example a session machine). */
  isPending?: boolean;
  /** A server error to show above the button; never swallowed. */
  error?: string | null;
  /**
   * The server's reasons for refusing fields (untranslated, e.g. "is one of the most common
   * passwords"): shown at the field, after its label, in place of `error`.
   */
  serverFieldErrors?: Partial<Record<keyof Values & string, string | null>>;
  /** Extra content under the error (for example a resend button). */
  errorAction?: ReactNode;
  children?: ReactNode;
  /** Empty the form after a successful submit (a handler answering `false` failed). */
  resetOnSuccess?: boolean;
  /** `inline` lays the fields and the button out in one row (toolbars). */
  layout?: 'stacked' | 'inline';
}

/**
 * A form built from a zod schema: validates on change, blur and submit, shows a field's
 * error once it was touched or the form submitted, blocks a submit with errors and moves
 * focus to the first invalid field.
 */
export function SchemaForm<Values extends StringRecord>(props: SchemaFormProps<Values>) {
  const { t } = useTranslation();
  const { formRef, field, handleSubmit, isSubmitting, isBlocked } = useSchemaForm(props);
  const pending = isSubmitting || Boolean(props.isPending);
  const hasServerFieldError = Object.values(props.serverFieldErrors ?? {}).some(Boolean);

  return (
    <form
      aria-label={props.label}
      className={props.layout === 'inline' ? 'schema-form inline' : 'schema-form'}
      noValidate
      ref={formRef}
      onSubmit={(event) => void handleSubmit(event)}
    >
      {props.fields.map((spec) => {
        const state = field(spec.name);
        const reason = pending ? null : props.serverFieldErrors?.[spec.name];
        const serverError = reason
          ? t('form.serverFieldError', { label: spec.label, reason })
          : null;
        return (
          <TextField
            key={spec.name}
            {...state}
            error={state.error ? t(state.error) : serverError}
            label={spec.label}
            type={spec.type ?? 'text'}
            autoComplete={spec.autoComplete}
            inputMode={spec.inputMode}
            autoFocus={spec.autoFocus}
            placeholder={spec.placeholder}
            description={spec.description}
          />
        );
      })}
      {isBlocked && <Alert tone="error">{t('form.fixErrors')}</Alert>}
      {props.error && !pending && !hasServerFieldError && (
        <Alert tone="error">
          {props.error}
          {props.errorAction}
        </Alert>
      )}
      {props.children}
      <ActionButton
        type="submit"
        variant="primary"
        isPending={pending}
        pendingLabel={props.pendingLabel}
      >
        {props.submitLabel}
      </ActionButton>
    </form>
  );
}
