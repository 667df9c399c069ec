/** A small progress indicator; the surrounding text says what is in progress. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
