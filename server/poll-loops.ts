/**
 * The loops of a queue's worker (the morph queue, bulk jobs): each takes work with `runOnce`
 * while it finds some, and waits `pollMs` when it found none (or when taking failed: the
 * error is reported and the loop tries again after the pause). `stop` wakes the waiting loops
 * and resolves when every loop has ended; work in hand is the caller's to end.
 */
export function startPollLoops(options: {
  concurrency: number;
  pollMs: number;
  /** Takes and does one piece of work; false when there was none. */
  runOnce: () => Promise<boolean>;
  onError: (error: unknown) => void;
}): { stop: () => Promise<void> } {
  const { concurrency, pollMs, runOnce, onError } = options;
  let stopped = false;
  const sleepers = new Set<() => void>();
  const idle = () =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, pollMs);
      sleepers.add(wake);
    });
  const loop = async () => {
    while (!stopped) {
      let worked = false;
      try {
        worked = await runOnce();
      } catch (error) {
        onError(error);
      }
      if (!worked && !stopped) await idle();
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    async stop() {
      stopped = true;
      for (const wake of [...sleepers]) wake();
      await Promise.all(loops);
    },
  };
}
