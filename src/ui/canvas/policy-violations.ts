/**
 * Which origins the page's Content-Security-Policy kept the viewer from fetching. A blocked
 * fetch fails with the same bare "Failed to fetch" as a host that is down; the browser tells
 * the reason only in a `securitypolicyviolation` event, which this module listens for from the
 * first model load on, so the error state can say why.
 */

/** Origins a violation of connect-src named, and who waits to hear of one. */
const blocked = new Set<string>();
const waiting = new Set<() => void>();
let listening = false;

function originOf(address: string): string | undefined {
  return URL.canParse(address) ? new URL(address).origin : undefined;
}

/** Starts listening (once); call before the first fetch. */
export function watchPolicyViolations(): void {
  if (listening || typeof document === 'undefined') return;
  listening = true;
  document.addEventListener('securitypolicyviolation', (event) => {
    if (event.effectiveDirective !== 'connect-src') return;
    const origin = originOf(event.blockedURI);
    if (origin === undefined) return;
    blocked.add(origin);
    for (const wake of waiting) wake();
  });
}

/**
 * The error to show for a failed fetch of `url` when the page's policy blocked it, else
 * undefined. The violation event is queued as a task of its own, so it may come after the
 * fetch's rejection: this waits up to `waitMs` for it.
 */
export async function policyError(url: string, waitMs = 500): Promise<Error | undefined> {
  const origin = originOf(url);
  if (origin === undefined || !listening) return undefined;
  if (!blocked.has(origin)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        resolve();
      };
      const wake = () => {
        if (blocked.has(origin)) done();
      };
      const timer = setTimeout(done, waitMs);
      waiting.add(wake);
    });
  }
  if (!blocked.has(origin)) return undefined;
  return new Error(
    `This page's security policy does not allow loading models from ${origin} (MODEL_ORIGINS)`,
  );
}
