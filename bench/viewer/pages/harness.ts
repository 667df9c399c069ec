// What both peer pages share: their address (the same parameters as /embed, plus the framing
// run.ts computed from the model's bounds) and the hooks run.ts drives. The timing itself is
// taken by run.ts's init script (window.__bench), never by the pages.

const query = new URLSearchParams(location.search);
const numbers = (name: string) => (query.get(name) ?? '').split(',').map(Number);

/** The page's parameters: the model and environment file every viewer gets, and the camera. */
export const params = {
  modelSrc: query.get('modelSrc') ?? '',
  environment: query.get('environment') ?? '',
  /** The point the camera looks at (the centre of the model's bounding sphere), in metres. */
  target: numbers('target') as [number, number, number],
  /** Camera distance from the target, in metres, and vertical field of view in degrees. */
  distance: Number(query.get('distance')),
  fov: Number(query.get('fov')),
};

/** The part of run.ts's probe (probe.ts) the pages call. */
interface BenchProbe {
  loaded: () => void;
  failed: (message: string) => void;
}

declare global {
  interface Window {
    __bench?: BenchProbe;
    /** Shows another model; run.ts waits for the next loaded signal. */
    __benchSwitch?: (url: string) => void;
  }
}

/** The viewer's own "loaded" signal (model-viewer: load event; visage: onLoaded). */
export function markLoaded() {
  window.__bench?.loaded();
}

/** The viewer reports that it cannot show the model. */
export function markFailed(message: string) {
  window.__bench?.failed(message);
}

/** Registers how the page switches models (for the memory measurement). */
export function onSwitch(show: (url: string) => void) {
  window.__benchSwitch = show;
}
