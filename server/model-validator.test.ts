import { beforeEach, describe, expect, it } from 'vitest';
import { validateGlb } from './model-validator';
import { readAvatar } from './test-files';
import { endIdleThreads, threadLoad, ThreadLimitError } from './threads';

describe('validateGlb in a worker thread', () => {
  // Threads other test files' jobs kept would serve these jobs instead.
  beforeEach(endIdleThreads);

  it('answers the report of a fixture avatar', async () => {
    const report = await validateGlb(readAvatar('maleIdle.glb'), '/files/a.glb');
    expect(report?.valid).toBe(true);
    // The thread is kept for the next validation, which does not load the validator again.
    expect(threadLoad()).toEqual({ running: 0, waiting: 0, idle: 1 });
    expect((await validateGlb(readAvatar('female-idle.glb'), '/files/b.glb'))?.valid).toBe(true);
    expect(threadLoad()).toEqual({ running: 0, waiting: 0, idle: 1 });
  });

  it('terminates a validation that passes its time and reports it', async () => {
    const error = await validateGlb(readAvatar('male-emissive.glb'), '/files/b.glb', {
      timeoutMs: 50,
      heapMb: 512,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ThreadLimitError);
    expect(error).toMatchObject({ reason: 'timeout', message: 'Stopped after 0.05 seconds' });
    // It took the thread kept by the test before and was terminated, not kept; the next
    // validation gets a new thread.
    expect(threadLoad()).toEqual({ running: 0, waiting: 0, idle: 0 });
    expect((await validateGlb(readAvatar('maleIdle.glb'), '/files/c.glb'))?.valid).toBe(true);
  });
});
