/**
 * "A tiny file that costs gigabytes": models that declare more than GLTF_LIMITS are
 * refused by the upload check and the validator route before anything is allocated, and the
 * validator runs off the event loop within a time limit.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { validationReportSchema } from '../contract/schemas';
import { OVERSIZED_MODELS } from '../core/files/test-models';
import { VALIDATOR_LIMITS } from './model-validator';
import { fileUrl } from './storage';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';
import { readAvatar, uploadFile } from './test-files';

const t = useTestApp();
const tokens = useRoleTokens(t);

/**
 * Runs `work` while a timer asks for the event loop every 5 ms; answers the work's result and
 * the longest the loop kept the timer waiting beyond its interval.
 */
async function withLoopProbe<T>(
  work: () => Promise<T>,
): Promise<{ result: T; maxStallMs: number }> {
  let last = performance.now();
  let maxStallMs = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxStallMs = Math.max(maxStallMs, now - last - 5);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, maxStallMs };
  } finally {
    clearInterval(probe);
  }
}

/** Stores `bytes` as a model without the upload checks (a file stored before the limits). */
async function storeUnchecked(bytes: Uint8Array<ArrayBuffer>) {
  const stored = await t.storage.put(new Blob([bytes]).stream(), {
    maxBytes: 100 * 1024 * 1024,
    accept: () => {},
  });
  return fileUrl(stored.key);
}

describe('models over the declared-size limits', () => {
  it.each(Object.entries(OVERSIZED_MODELS))(
    'POST /v1/uploads/model refuses %s with the limit it passes, keeping the loop responsive',
    async (_, { glb, reason }) => {
      const before = await readdir(t.storageDir).catch(() => []);
      // Built before the probe starts: building 100,000 nodes is the test's work, not the server's.
      const bytes = glb();
      const { result, maxStallMs } = await withLoopProbe(() =>
        t.request('POST', '/v1/uploads/model', { bytes, token: tokens.developer }),
      );
      const { message } = expectError(result, 400, 'VALIDATION_ERROR');
      expect(message).toMatch(/^fileInput\.modelOverLimit: model /);
      expect(message.replace('fileInput.modelOverLimit: model ', '')).toMatch(reason);
      expect(maxStallMs).toBeLessThan(250);
      expect(await readdir(t.storageDir).catch(() => [])).toEqual(before);
    },
  );

  it('POST /v1/assets/validate refuses a stored model over a limit (422) before the validator runs', async () => {
    const url = await storeUnchecked(OVERSIZED_MODELS.sparseVertices.glb());
    const { message } = expectError(
      await t.post('/v1/assets/validate', { modelUrl: url }, tokens.developer),
      422,
      'MODEL_OVER_LIMIT',
    );
    expect(message).toBe(`The model ${OVERSIZED_MODELS.sparseVertices.reason}`);
  });
});

describe('the validator off the event loop', () => {
  it('validates in a worker thread while the loop keeps answering', async () => {
    const { url } = await uploadFile(
      t.request,
      'model',
      readAvatar('male-emissive.glb'),
      tokens.developer,
    );
    const { result, maxStallMs } = await withLoopProbe(() =>
      t.post('/v1/assets/validate', { modelUrl: url }, tokens.developer),
    );
    expect(validationReportSchema.parse(dataOf(result))).toMatchObject({ valid: true });
    expect(maxStallMs).toBeLessThan(250);
  });

  it('stops a validation that passes its time: 422, and the server goes on', async () => {
    const { url } = await uploadFile(
      t.request,
      'model',
      readAvatar('male-emissive.glb'),
      tokens.developer,
    );
    const { timeoutMs } = VALIDATOR_LIMITS;
    VALIDATOR_LIMITS.timeoutMs = 20;
    try {
      const { message } = expectError(
        await t.post('/v1/assets/validate', { modelUrl: url }, tokens.developer),
        422,
        'MODEL_CHECK_FAILED',
      );
      expect(message).toBe('The model took too long to check (stopped after 0.02 seconds)');
    } finally {
      VALIDATOR_LIMITS.timeoutMs = timeoutMs;
    }
    const report = dataOf(await t.post('/v1/assets/validate', { modelUrl: url }, tokens.developer));
    expect(validationReportSchema.parse(report).valid).toBe(true);
  });
});
