// The init script of every bench page (run.ts adds it before any of the page's own scripts),
// the same for all three viewers. Times are the page's performance.now(), i.e. milliseconds
// since navigation start (performance.timeOrigin).

export interface ProbeOptions {
  /** Follow our viewer's `data-state` attribute (its "loaded" signal on a top-level /embed). */
  dataState: boolean;
  /** Keep a copy of the first painted frame (screenshot runs only; never in timed runs). */
  capture: boolean;
}

/** What the probe exposes as `window.__bench`. */
export interface Probe {
  /** The first painted frame: opaque pixels in the canvas's central area. */
  firstPaintAt?: number;
  /** The viewer's own "loaded" signal (ours: data-state leaves `loading`). */
  loadedAt?: number;
  /** Ours: data-state `spawned` (spawn effect and animation done). */
  spawnedAt?: number;
  /** How many loaded signals so far (model switches wait for the next one). */
  loads: number;
  /** WebGL draw calls so far, and animation frames in which some were made. */
  draws: number;
  frames: number;
  error?: string;
  /** Content-Security-Policy violations (a peer hampered by the server's policy shows here). */
  csp: string[];
  /** The drawing-buffer size of the canvas that painted first (its resolution, not CSS size). */
  paintedSize?: string;
  firstFrame?: HTMLCanvasElement;
  loaded: () => void;
  failed: (message: string) => void;
}

/**
 * Runs in the page before its scripts (serialised with toString(): self-contained). WebGL
 * canvases keep their drawing buffer so that they can be read back after the frame (ours asks
 * for that itself; the peers get it here, so all three pay the same); draw calls are counted;
 * after every animation frame (a message task, which runs once the frame's rendering is done)
 * the central area of each canvas is read until one shows opaque pixels.
 */
export function probe(options: ProbeOptions) {
  const bench: Probe = {
    loads: 0,
    draws: 0,
    frames: 0,
    csp: [],
    loaded() {
      bench.loadedAt ??= performance.now();
      bench.loads++;
    },
    failed(message) {
      bench.error ??= message;
    },
  };
  (window as unknown as { __bench: Probe }).__bench = bench;

  document.addEventListener('securitypolicyviolation', (event) => {
    bench.csp.push(`${event.violatedDirective} ${event.blockedURI}`);
  });

  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call(this)
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (
    this: HTMLCanvasElement,
    type: string,
    attributes?: Record<string, unknown>,
  ) {
    const settings = type.startsWith('webgl')
      ? { ...attributes, preserveDrawingBuffer: true }
      : attributes;
    return getContext.call(this, type, settings);
  } as typeof getContext;
  const names = [
    'drawArrays',
    'drawElements',
    'drawArraysInstanced',
    'drawElementsInstanced',
    'drawRangeElements',
    'multiDrawArraysWEBGL',
    'multiDrawElementsWEBGL',
  ];
  for (const proto of [WebGLRenderingContext.prototype, WebGL2RenderingContext.prototype]) {
    const table = proto as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of names) {
      const original = table[name];
      if (!original) continue;
      table[name] = function (this: unknown, ...args: unknown[]) {
        bench.draws++;
        return original.apply(this, args);
      };
    }
  }

  if (options.dataState) {
    // Our viewer's root element says `loading`, then `spawning` (the `loaded` event: its first
    // frame with the avatar is on screen) and `spawned`; a new model starts again at `loading`.
    let state: string | undefined;
    const observer = new MutationObserver(() => {
      const next = document.querySelector('[data-state]')?.getAttribute('data-state') ?? undefined;
      if (next === state) return;
      const shown = (s: string | undefined) => s === 'spawning' || s === 'spawned';
      if (shown(next) && !shown(state)) bench.loaded();
      if (next === 'spawned') bench.spawnedAt ??= performance.now();
      if (next === 'error') bench.failed('the viewer shows its error state');
      state = next;
    });
    observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state'],
    });
  }

  const sample = document.createElement('canvas');
  const ctx = sample.getContext('2d', { willReadFrequently: true })!;
  const canvases = (root: Document | ShadowRoot, found: HTMLCanvasElement[] = []) => {
    for (const element of Array.from(root.querySelectorAll('*'))) {
      if (element instanceof HTMLCanvasElement) found.push(element);
      if (element.shadowRoot) canvases(element.shadowRoot, found);
    }
    return found;
  };
  /**
   * Opaque pixels in the canvas's central area (10% of its width, 40% of its height), where
   * every viewer's avatar stands: the bench frames the model's bounding sphere at the centre.
   */
  const painted = (canvas: HTMLCanvasElement) => {
    if (canvas.width < 16 || canvas.height < 16) return false;
    const width = Math.round(canvas.width * 0.1);
    const height = Math.round(canvas.height * 0.4);
    if (sample.width !== width || sample.height !== height) {
      sample.width = width;
      sample.height = height;
    } else ctx.clearRect(0, 0, width, height);
    const x = Math.round((canvas.width - width) / 2);
    const y = Math.round((canvas.height - height) / 2);
    ctx.drawImage(canvas, x, y, width, height, 0, 0, width, height);
    const { data } = ctx.getImageData(0, 0, width, height);
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 200) return true;
    return false;
  };
  const copy = (canvas: HTMLCanvasElement) => {
    const frame = document.createElement('canvas');
    frame.width = canvas.width;
    frame.height = canvas.height;
    const frameCtx = frame.getContext('2d')!;
    frameCtx.fillStyle = '#fff';
    frameCtx.fillRect(0, 0, frame.width, frame.height);
    frameCtx.drawImage(canvas, 0, 0);
    return frame;
  };

  const afterFrame = new MessageChannel();
  afterFrame.port1.onmessage = () => {
    if (bench.firstPaintAt !== undefined) return;
    const canvas = canvases(document).find((c) => painted(c));
    if (!canvas) return;
    bench.firstPaintAt = performance.now();
    bench.paintedSize = `${canvas.width} x ${canvas.height}`;
    if (options.capture) bench.firstFrame = copy(canvas);
  };
  let seen = 0;
  const tick = () => {
    if (bench.draws !== seen) {
      seen = bench.draws;
      bench.frames++;
    }
    if (bench.firstPaintAt === undefined) afterFrame.port2.postMessage(0);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
