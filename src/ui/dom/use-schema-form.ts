import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { z } from 'zod/mini';

/** The first issue message per field path ("email", "address.city"). */
function fieldErrors(schema: z.core.$ZodType, values: unknown): Record<string, string> {
  const result = z.safeParse(schema, values);
  const errors: Record<string, string> = {};
  if (!result.success) {
    for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  }
  return errors;
}

/**
 * Form state driven by one zod schema: the values are validated on every change, a field's
 * error becomes visible once it was touched (changed or left) or a submit was tried, and a
 * submit with errors is blocked and moves focus to the first invalid field.
 *
 * Why not a form library: the account screens load before anything else and must stay
 * within the sign-in page's JavaScript budget; react-hook-form, TanStack Form and Conform
 * each cost 9-14 KB gzip, this costs well under 1 KB. See docs/architecture.md "Sign-in page budget".
 */
export function useSchemaForm<Values extends Record<string, string>>(options: {
  schema: z.ZodMiniType<Values, Values>;
  defaultValues: Values;
  onSubmit: (values: Values) => unknown;
  /** Empty the form after a submit whose handler did not answer `false`. */
  resetOnSuccess?: boolean;
}) {
  const [values, setValues] = useState(options.defaultValues);
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [submitCount, setSubmitCount] = useState(0);
  const [isSubmitting, setSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstInvalid = useRef(false);
  const errors = useMemo(() => fieldErrors(options.schema, values), [options.schema, values]);
  const hasErrors = Object.keys(errors).length > 0;

  // Runs after the blocked submit rendered its invalid markers.
  useEffect(() => {
    if (!focusFirstInvalid.current) return;
    focusFirstInvalid.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [submitCount]);

  const field = useCallback(
    (name: keyof Values & string) => ({
      name,
      value: values[name] ?? '',
      onChange: (value: string) => {
        setValues((previous) => ({ ...previous, [name]: value }));
        setTouched((previous) => ({ ...previous, [name]: true }));
      },
      onBlur: () => setTouched((previous) => ({ ...previous, [name]: true })),
      error: errors[name] && (touched[name] || submitCount > 0) ? errors[name] : null,
    }),
    [values, errors, touched, submitCount],
  );

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitCount((count) => count + 1);
    if (hasErrors) {
      focusFirstInvalid.current = true;
      return;
    }
    setSubmitting(true);
    try {
      const outcome = await options.onSubmit(values);
      if (options.resetOnSuccess && outcome !== false) {
        setValues(options.defaultValues);
        setTouched({});
        setSubmitCount(0);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return {
    formRef,
    field,
    handleSubmit,
    isSubmitting,
    /** A submit was tried and errors remain. */
    isBlocked: submitCount > 0 && hasErrors,
  };
}
