import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/**
 * A new folder in the system's temporary folder, removed when the test that asked for it ends
 * (or, asked for while a file's tests are collected, when the file's tests have run): test runs
 * leave nothing behind in /tmp.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    // Not inside a test.
    afterAll(remove);
  }
  return dir;
}
