import type { Frame, Page } from 'playwright-core';

/** RGBA pixels of a picture, row by row. */
export interface Pixels {
  width: number;
  height: number;
  data: Buffer;
}

/** A PNG (a screenshot) as RGBA pixels, decoded by the browser of `surface`. */
export async function pixelsOf(surface: Page | Frame, png: Buffer): Promise<Pixels> {
  const { width, height, base64 } = await surface.evaluate(async (b64) => {
    const bitmap = await createImageBitmap(
      await (await fetch(`data:image/png;base64,${b64}`)).blob(),
    );
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    let binary = '';
    for (let i = 0; i < data.length; i += 8192) {
      binary += String.fromCharCode(...data.subarray(i, i + 8192));
    }
    return { width: bitmap.width, height: bitmap.height, base64: btoa(binary) };
  }, png.toString('base64'));
  return { width, height, data: Buffer.from(base64, 'base64') };
}

/**
 * In the w x h box at (x, y): how many pixels are opaque (alpha over 200) and their mean
 * brightness (0..255).
 */
export function opaqueIn(pixels: Pixels, x: number, y: number, w: number, h: number) {
  let opaque = 0;
  let sum = 0;
  for (let row = Math.round(y); row < Math.round(y + h); row++) {
    for (let column = Math.round(x); column < Math.round(x + w); column++) {
      const i = (row * pixels.width + column) * 4;
      if (pixels.data[i + 3]! <= 200) continue;
      opaque++;
      sum += (pixels.data[i]! + pixels.data[i + 1]! + pixels.data[i + 2]!) / 3;
    }
  }
  return { opaque, brightness: opaque === 0 ? 0 : sum / opaque };
}

/** The canvas once two shots a moment apart are the same, as RGBA pixels. */
export async function stablePixels(page: Page): Promise<Pixels> {
  const shot = () => page.locator('canvas').screenshot({ omitBackground: true });
  let picture = await shot();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(200);
    const next = await shot();
    if (next.equals(picture)) break;
    picture = next;
  }
  return pixelsOf(page, picture);
}
