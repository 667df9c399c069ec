/**
 * Reads what the server logs: `captureLog()` collects every line (at every level) until the
 * test that called it ends.
 */
import { onTestFinished } from 'vitest';
import { log, redirectLog } from './log';

export interface CapturedLog {
  /** Every line so far, as written. */
  text(): string;
  /** Every line so far, parsed. */
  entries(): Record<string, unknown>[];
  /** Stops capturing before the test ends. */
  restore(): void;
}

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  const redirected = redirectLog({ write: (line: string) => void lines.push(line) });
  const level = log.level;
  log.level = 'trace';
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    redirected();
    log.level = level;
  };
  onTestFinished(restore);
  return {
    restore,
    text: () => lines.join(''),
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
