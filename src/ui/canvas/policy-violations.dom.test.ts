import { describe, expect, it } from 'vitest';
import { policyError, watchPolicyViolations } from './policy-violations';

/** What the browser dispatches when the page's policy blocks a fetch. */
function violation(blockedURI: string, effectiveDirective = 'connect-src') {
  const event = new Event('securitypolicyviolation');
  Object.assign(event, { blockedURI, effectiveDirective });
  document.dispatchEvent(event);
}

describe('policyError', () => {
  watchPolicyViolations();

  it('names the blocked origin when the violation comes before the failed fetch settles', async () => {
    violation('https://first.example/models/a.glb');
    const error = await policyError('https://first.example/models/b.glb');
    expect(error?.message).toBe(
      "This page's security policy does not allow loading models from https://first.example (MODEL_ORIGINS)",
    );
  });

  it('waits for a violation that comes after the fetch failed', async () => {
    const pending = policyError('https://late.example/a.glb', 2000);
    setTimeout(() => violation('https://late.example/a.glb'), 20);
    const started = performance.now();
    expect((await pending)?.message).toContain('from https://late.example (MODEL_ORIGINS)');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('blames the network, not the policy, when no violation names the origin', async () => {
    violation('https://other.example/a.glb');
    violation('https://img.example/a.png', 'img-src');
    expect(await policyError('https://down.example/a.glb', 50)).toBeUndefined();
    expect(await policyError('https://img.example/a.glb', 50)).toBeUndefined();
  });
});
