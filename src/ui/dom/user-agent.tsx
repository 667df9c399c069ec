import { parse } from 'bowser';
import './user-agent.css';

/**
 * The browser and the system of a user agent as people name them ("Chrome", "iPhone"), or
 * undefined when the browser is not one a parser knows (a script, a command-line client).
 */
export function describeUserAgent(
  userAgent: string,
): { browser: string; system: string | undefined } | undefined {
  const parsed = parse(userAgent);
  const browser = parsed.browser.name;
  if (!browser) return undefined;
  // A phone or tablet is named by its model where the agent says it (iPhone, iPad).
  const system = parsed.platform.model ?? parsed.os.name;
  return { browser, system: system || undefined };
}

interface UserAgentProps {
  /** The raw user agent, or null where the session has none. */
  value: string | null;
  /** What to show without one. */
  unknownLabel: string;
  /** "{browser} on {system}" in the page's language. */
  describe: (browser: string, system: string | undefined) => string;
}

/**
 * A session's browser by name, with the raw user agent one click away; an agent no parser
 * knows is shown as it is.
 */
export function UserAgent({ value, unknownLabel, describe }: UserAgentProps) {
  if (value === null) return <>{unknownLabel}</>;
  const described = describeUserAgent(value);
  if (!described) return <span className="user-agent-raw">{value}</span>;
  return (
    <details className="user-agent">
      <summary>{describe(described.browser, described.system)}</summary>
      <span className="user-agent-raw">{value}</span>
    </details>
  );
}
