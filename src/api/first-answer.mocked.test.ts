import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The module afresh: it keeps the page's one answer-and-idle moment. */
const fresh = async () => {
  vi.resetModules();
  return import('./first-answer');
};

describe("the page's first answer, drawn", () => {
  let idle: (() => void)[] = [];
  beforeEach(() => {
    idle = [];
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('comes at the first idle moment after the first answer; later answers change nothing', async () => {
    const first = await fresh();
    const waiting = vi.fn();
    first.onFirstAnswerSettled(waiting);
    first.noteAnswer();
    first.noteAnswer();
    expect(idle).toHaveLength(1);
    expect(waiting).not.toHaveBeenCalled();
    expect(first.firstAnswerSettled()).toBe(false);
    idle[0]!();
    expect(waiting).toHaveBeenCalledOnce();
    expect(first.firstAnswerSettled()).toBe(true);
    // Whoever asks afterwards goes on at once.
    const late = vi.fn();
    first.onFirstAnswerSettled(late);
    expect(late).toHaveBeenCalledOnce();
    await expect(first.afterFirstAnswer()).resolves.toBeUndefined();
  });

  it('comes 2 s after something first waits on a page that reads nothing', async () => {
    const first = await fresh();
    const waiting = vi.fn();
    const stop = vi.fn();
    first.onFirstAnswerSettled(waiting);
    first.onFirstAnswerSettled(stop)();
    vi.advanceTimersByTime(1_999);
    expect(waiting).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(waiting).toHaveBeenCalledOnce();
    // One that stopped waiting is not called.
    expect(stop).not.toHaveBeenCalled();
  });
});
