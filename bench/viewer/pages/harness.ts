// What every bench page shares: the model it shows and the hooks run.ts drives.

/** The same model for every viewer; run.ts serves /fixtures/ from ../shared/fixtures. */
export const MODELS = [
  '/fixtures/avatars/male-emissive.glb',
  // The same file under a second address, so a switch is a real switch for every cache.
  '/fixtures/avatars/male-emissive.glb?copy=2',
] as const;

export interface BenchPage {
  /** performance.now() when the viewer was mounted. */
  mountedAt?: number;
  /** performance.now() of the first "spawned" (ours) or load event (peers). */
  spawnedAt?: number;
  /** Shows `url` and resolves at its spawned / load event. */
  switchTo?: (url: string) => Promise<void>;
}

declare global {
  interface Window {
    __benchPage: BenchPage;
  }
}

const page: BenchPage = (window.__benchPage = {});
let waiters: (() => void)[] = [];

export function markMounted() {
  page.mountedAt = performance.now();
}

/** The viewer reports its model spawned / loaded. */
export function markSpawned() {
  page.spawnedAt ??= performance.now();
  const ready = waiters;
  waiters = [];
  ready.forEach((resolve) => resolve());
}

/** Registers how the page switches models; the promise resolves at the next spawned event. */
export function onSwitch(show: (url: string) => void) {
  page.switchTo = (url) =>
    new Promise<void>((resolve) => {
      waiters.push(resolve);
      show(url);
    });
}
