/**
 * Build-time prefiltering of the environment presets (the algorithm: src/ui/canvas/prefilter.ts):
 * each preset's .exr becomes a .pmrem file, cached on disk, so the viewer loads it as a finished
 * texture and pays no prefiltering frame.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FloatType, REVISION } from 'three';
import { EXRLoader } from 'three/examples/jsm/loaders/EXRLoader.js';
import { encodePmrem } from '../src/ui/canvas/pmrem-file';
import {
  FACE_SIZE,
  GGX_SAMPLES,
  INTEGRATION_ROUGHNESS,
  INTEGRATION_SIZE,
  packLevels,
  prefilterEquirect,
  SUPERSAMPLES,
  type Equirect,
} from '../src/ui/canvas/prefilter';

/** Changes whenever the output for the same input changes (the cache key). */
const ALGORITHM_VERSION = 1;

/** An EXR file's pixels as linear float RGBA (three's EXRLoader, which runs in Node too). */
export function readExr(bytes: Uint8Array): Equirect {
  const loader = new EXRLoader().setDataType(FloatType);
  const copy = bytes.slice().buffer;
  const { width, height, data } = loader.parse(copy) as {
    width: number;
    height: number;
    data: Float32Array;
  };
  return { width, height, data };
}

/**
 * The .pmrem file of an EXR environment, cached on disk (under `cacheDir`) by the hash of the
 * EXR and of the settings above, so a build prefilters each preset once.
 */
export function prefilteredEnvironment(exr: Uint8Array, cacheDir: string): Buffer {
  const settings = [ALGORITHM_VERSION, FACE_SIZE, GGX_SAMPLES, INTEGRATION_ROUGHNESS];
  const key = createHash('sha256')
    // three's revision too: its EXRLoader reads the file.
    .update(`pmrem ${settings.join(' ')} ${INTEGRATION_SIZE} ${SUPERSAMPLES} three ${REVISION}\n`)
    .update(exr)
    .digest('hex')
    .slice(0, 32);
  const cached = join(cacheDir, `${key}.pmrem`);
  try {
    return readFileSync(cached);
  } catch {
    // Not prefiltered yet.
  }
  const file = Buffer.from(encodePmrem(packLevels(FACE_SIZE, prefilterEquirect(readExr(exr)))));
  mkdirSync(cacheDir, { recursive: true });
  // Written whole, then renamed: a build running beside this one never reads half a file.
  const partial = `${cached}.${process.pid}.tmp`;
  writeFileSync(partial, file);
  renameSync(partial, cached);
  return file;
}
