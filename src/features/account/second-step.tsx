import { lazy, Suspense } from 'react';

const Form = lazy(async () => ({ default: (await import('./second-step-form')).SecondStepForm }));

/**
 * The second sign-in step, fetched when a sign-in meets an authenticator: most sign-ins never
 * show it, and the sign-in page's JavaScript budget (docs/architecture.md "Sign-in page budget") holds only
 * what every sign-in needs.
 */
export function SecondStep() {
  return (
    <Suspense fallback={null}>
      <Form />
    </Suspense>
  );
}
