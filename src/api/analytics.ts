/**
 * Product analytics behind a pluggable sink (spec §4: the upload control tracks "file selected",
 * "file removed" and "file error"). The app ships no analytics provider: production sends
 * nothing until a sink is set, development logs each event with `console.debug`.
 */

/** What an event carries: plain values only, never file names, contents or personal data. */
export type AnalyticsProps = Readonly<Record<string, string | number | boolean | null>>;

/** Receives every tracked event, e.g. a wrapper around a provider's `capture`. */
export type AnalyticsSink = (name: string, props: AnalyticsProps) => void;

const developmentSink: AnalyticsSink = (name, props) => {
  console.debug(`[analytics] ${name}`, props);
};

let sink: AnalyticsSink | null = import.meta.env.DEV ? developmentSink : null;

/**
 * Routes events to `next`; null turns tracking off.
 * @internal A seam for the tests, which read what is tracked.
 */
export function setAnalyticsSink(next: AnalyticsSink | null): void {
  sink = next;
}

/** Sends one event to the sink, if any. A failing sink never breaks the feature that tracked. */
export function track(name: string, props: AnalyticsProps): void {
  if (!sink) return;
  try {
    sink(name, props);
  } catch (error) {
    console.warn(`Analytics sink failed on "${name}"`, error);
  }
}
