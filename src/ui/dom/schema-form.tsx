/**
 * The app's one form system: useSchemaForm declares a form (values, rules, submit) and gives
 * each field a labelled control's props; SchemaForm lays out a form of text fields with it (the
 * account screens, the tag and application dialogs). The record forms use the hook through
 * useEntityForm (src/machines/entity-form.view.ts).
 */
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { ActionButton } from './action-button';
import { Alert } from './alert';
import { TextField } from './text-field';

/** `{ field: message }`: the error of each invalid field. */
type FieldErrors = Partial<Record<string, string>>;

/**
 * A form's rules: a zod schema, whose first issue per field path ("email", "address.city") is
 * that field's error, or a function of the values answering the errors itself.
 */
type FormRules<Values> = z.core.$ZodType | ((values: Values) => FieldErrors);

function errorsOf<Values>(rules: FormRules<Values>, values: Values): FieldErrors {
  if (typeof rules === 'function') return rules(values);
  const result = z.safeParse(rules, values);
  const errors: FieldErrors = {};
  if (!result.success) {
    for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  }
  return errors;
}

/** Field values are strings, booleans, files or lists of ids: identity, or the same items. */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  return (
    Array.isArray(a) &&
    Array.isArray(b) &&
    a.length === b.length &&
    a.every((item, index) => Object.is(item, b[index]))
  );
}

const changedFields = <Values extends object>(values: Values, base: Values) =>
  (Object.keys(values) as (keyof Values & string)[]).filter((key) => !same(values[key], base[key]));

interface FormState<Values> {
  values: Values;
  /** What the form was loaded with or last reset to: a field that differs is changed. */
  defaults: Values;
  touched: Partial<Record<keyof Values, true>>;
  attempts: number;
  isSubmitting?: boolean;
}

/**
 * The form's state outside React's, so that what it holds is true the moment it changes: a
 * reset before a navigation is seen by the unsaved-changes guard that navigation asks.
 */
function createFormStore<Values extends object>(values: Values) {
  const fresh = (next: Values) => ({ values: next, defaults: next, touched: {}, attempts: 0 });
  let state: FormState<Values> = fresh(values);
  const listeners = new Set<() => void>();
  const set = (next: Partial<FormState<Values>>) => {
    state = { ...state, ...next };
    listeners.forEach((listener) => listener());
  };
  return {
    get: () => state,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    set,
    reset: (next: Values = state.defaults) => set(fresh(next)),
    isDirty: () => changedFields(state.values, state.defaults).length > 0,
    /** Sets a field's value as the user would (it counts as touched); no value: left. */
    change: <K extends keyof Values>(name: K, value: Values[K] = state.values[name]) =>
      set({
        values: { ...state.values, [name]: value },
        touched: { ...state.touched, [name]: true },
      }),
  };
}

interface FormOptions<Values extends object> {
  /** The values the form starts from (reset gives it new ones). */
  defaultValues: Values;
  rules: FormRules<Values>;
  /** A submit whose values pass the rules. */
  onSubmit: (values: Values) => unknown;
  /** A submit the rules refused (after the fields show their errors, focus goes to the first). */
  onSubmitInvalid?: () => void;
  /** Empty the form after a submit whose handler did not answer `false`. */
  resetOnSuccess?: boolean;
}

/**
 * The one way a form is declared here: its values, its rules (a zod schema from contract/ or
 * the feature, or a function) and its submit. The rules run on every change; a field's error
 * shows once it was touched (changed or left) or a submit was tried; a submit with errors is
 * refused and moves focus to the first invalid field. `field(name)` is what a labelled control
 * takes (name, value, onChange, onBlur, error); the form also says which fields differ from
 * its defaults (`changed`), and `reset` starts afresh.
 *
 * Why not a form library: the account screens load before anything else and must stay
 * within the sign-in page's JavaScript budget; react-hook-form, TanStack Form and Conform
 * each cost 9-16 KB gzip, this about 1 KB. See docs/architecture.md "Sign-in page budget".
 */
export function useSchemaForm<Values extends object>(options: FormOptions<Values>) {
  const [store] = useState(() => createFormStore(options.defaultValues));
  const state = useSyncExternalStore(store.subscribe, store.get);
  const formRef = useRef<HTMLFormElement>(null);
  const [focusRequest, setFocusRequest] = useState(0);

  // Runs after the refused submit rendered its invalid markers.
  useEffect(() => {
    if (focusRequest > 0)
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const { rules, onSubmit, onSubmitInvalid, resetOnSuccess } = options;
  const { values, touched, attempts } = state;
  const errors = useMemo(() => errorsOf(rules, values), [rules, values]);
  const isValid = Object.keys(errors).length === 0;
  const submitted = attempts > 0;
  const changed = useMemo(() => changedFields(values, state.defaults), [values, state.defaults]);

  const handleSubmit = async (event?: FormEvent) => {
    event?.preventDefault();
    store.set({ attempts: attempts + 1 });
    if (!isValid) {
      onSubmitInvalid?.();
      setFocusRequest(attempts + 1);
      return;
    }
    store.set({ isSubmitting: true });
    try {
      const outcome = await onSubmit(values);
      if (resetOnSuccess && outcome !== false) store.reset();
    } finally {
      store.set({ isSubmitting: false });
    }
  };

  return {
    formRef,
    values,
    field: <K extends keyof Values & string>(name: K) => ({
      name,
      value: values[name],
      onChange: (value: Values[K]) => store.change(name, value),
      onBlur: () => store.change(name),
      error: touched[name] || submitted ? (errors[name] ?? null) : null,
    }),
    setValue: store.change,
    handleSubmit,
    /** Back to `values` (which become the defaults), or to the defaults. */
    reset: store.reset,
    /** Whether the values differ from the defaults now (for a guard asked outside rendering). */
    isDirtyNow: store.isDirty,
    isSubmitting: Boolean(state.isSubmitting),
    isDirty: changed.length > 0,
    changed,
    isValid,
    submitted,
    /** A submit was tried and errors remain. */
    isBlocked: submitted && !isValid,
  };
}

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
 * A form of text fields built from a zod schema (useSchemaForm, laid out): validates on change,
 * blur and submit, shows a field's error once it was touched or the form submitted, blocks a
 * submit with errors and moves focus to the first invalid field.
 */
export function SchemaForm<Values extends StringRecord>(props: SchemaFormProps<Values>) {
  const { t } = useTranslation();
  const { formRef, field, handleSubmit, isSubmitting, isBlocked } = useSchemaForm({
    defaultValues: props.defaultValues,
    rules: props.schema,
    onSubmit: props.onSubmit,
    resetOnSuccess: props.resetOnSuccess ?? false,
  });
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
            value={state.value ?? ''}
            // Text fields: every value is a string (StringRecord), whatever narrower type it has.
            onChange={state.onChange as (value: string) => void}
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
