/**
 * An asset's icon rendered in the browser from its model, for servers without an icon
 * renderer (GET v1/services): the avatar viewer in a hidden 512 × 512 box, framed with `fit`
 * on a transparent background, captured once the model is drawn, then unmounted.
 */
import { createRoot } from 'react-dom/client';

/** Width and height of a rendered icon (the icon upload rule allows up to 1024). */
export const ICON_SIZE = 512;
/** Frames to wait for the first picture of the model after it spawned. */
const MAX_FRAMES = 120;
/** How long the model may take to load and draw. */
const RENDER_TIMEOUT_MS = 60_000;

const nextFrame = () => new Promise((done) => requestAnimationFrame(done));

/** Whether any pixel of the 2D canvas is not fully transparent. */
function hasPicture(context: CanvasRenderingContext2D): boolean {
  const { data } = context.getImageData(0, 0, ICON_SIZE, ICON_SIZE);
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
  return false;
}

/**
 * Renders `modelUrl` with the viewer and answers a 512 × 512 RGBA PNG of it named `name`.
 * Rejects with the viewer's reason when the model cannot be loaded or draws nothing.
 */
export async function renderModelIcon(modelUrl: string, name: string): Promise<File> {
  // The viewer (three.js, R3F) loads only when an icon is rendered.
  const { AvatarViewer } = await import('../../../viewer');
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.dataset.iconRenderer = '';
  // Laid out (the viewer sizes its canvas from its box) but off screen and inert.
  Object.assign(host.style, {
    position: 'fixed',
    left: `-${ICON_SIZE * 4}px`,
    top: '0',
    width: `${ICON_SIZE}px`,
    height: `${ICON_SIZE}px`,
    pointerEvents: 'none',
  });
  document.body.append(host);
  const root = createRoot(host);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error('The model took too long to load')),
        RENDER_TIMEOUT_MS,
      );
      root.render(
        <AvatarViewer
          modelSrc={modelUrl}
          fit
          label={name}
          onSpawnFinished={resolve}
          onError={(error) => reject(error instanceof Error ? error : new Error(String(error)))}
        />,
      );
    });
    const source = host.querySelector('canvas');
    if (!source) throw new Error('The viewer has no picture');
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = ICON_SIZE;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    // Drawn on demand: the avatar's first frame comes a frame or two after it spawned.
    let drawn = false;
    for (let frame = 0; frame < MAX_FRAMES && !drawn; frame++) {
      await nextFrame();
      context.clearRect(0, 0, ICON_SIZE, ICON_SIZE);
      // The viewer's canvas is ICON_SIZE times the device pixel ratio (up to 2): scaled to size.
      context.drawImage(source, 0, 0, ICON_SIZE, ICON_SIZE);
      drawn = hasPicture(context);
    }
    if (!drawn) throw new Error('The model drew nothing visible');
    const blob = await new Promise<Blob | null>((done) => canvas.toBlob(done, 'image/png'));
    if (!blob) throw new Error('The picture could not be encoded as PNG');
    return new File([blob], `${name}.png`, { type: 'image/png' });
  } finally {
    clearTimeout(timer);
    root.unmount();
    host.remove();
  }
}
