import { useForm } from '@tanstack/react-form';
import { useRef, type ReactNode } from 'react';
import { Button, FieldError, Form, Input, Label, Text, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod/mini';
import { Alert } from './alert';
import { Spinner } from './spinner';

export interface FieldSpec<Name extends string> {
  name: Name;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  description?: string;
  inputMode?: 'numeric' | 'email' | 'text';
  autoFocus?: boolean;
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
  /** Extra content under the error (for example a resend button). */
  errorAction?: ReactNode;
  children?: ReactNode;
}

/**
 * A form built from a zod schema: validates on change, blur and submit, shows a field's
 * error once it was touched or the form submitted, blocks a submit with errors and
 * moves focus to the first invalid field.
 */
export function SchemaForm<Values extends StringRecord>(props: SchemaFormProps<Values>) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm({
    defaultValues: props.defaultValues,
    validators: { onChange: props.schema, onBlur: props.schema, onSubmit: props.schema },
    onSubmit: async ({ value }) => {
      await props.onSubmit(value);
    },
    onSubmitInvalid: () => {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    },
  });

  return (
    <Form
      ref={formRef}
      aria-label={props.label}
      className="schema-form"
      validationBehavior="aria"
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
    >
      {props.fields.map((spec) => (
        <form.Field key={spec.name} name={spec.name as never}>
          {(field) => {
            const attempted = form.state.submissionAttempts > 0;
            const issue = field.state.meta.errors[0] as { message?: string } | string | undefined;
            const message = typeof issue === 'string' ? issue : issue?.message;
            const showError = Boolean(message) && (field.state.meta.isTouched || attempted);
            return (
              <TextField
                className="field"
                name={spec.name}
                type={spec.type ?? 'text'}
                value={field.state.value as unknown as string}
                onChange={(value) => field.handleChange(value as never)}
                onBlur={field.handleBlur}
                isInvalid={showError}
                autoComplete={spec.autoComplete}
                inputMode={spec.inputMode}
                autoFocus={spec.autoFocus}
              >
                <Label>{spec.label}</Label>
                <Input />
                {spec.description && <Text slot="description">{spec.description}</Text>}
                <FieldError>{showError && message ? t(message) : null}</FieldError>
              </TextField>
            );
          }}
        </form.Field>
      ))}
      <form.Subscribe
        selector={(state) => [state.isSubmitting, state.submissionAttempts, state.isValid] as const}
      >
        {([isSubmitting, attempts, isValid]) => {
          const pending = isSubmitting || Boolean(props.isPending);
          return (
            <>
              {attempts > 0 && !isValid && <Alert tone="error">{t('form.fixErrors')}</Alert>}
              {props.error && !pending && (
                <Alert tone="error">
                  {props.error}
                  {props.errorAction}
                </Alert>
              )}
              {props.children}
              <Button type="submit" className="button primary" isPending={pending}>
                {pending ? (
                  <>
                    <Spinner /> {props.pendingLabel}
                  </>
                ) : (
                  props.submitLabel
                )}
              </Button>
            </>
          );
        }}
      </form.Subscribe>
    </Form>
  );
}
