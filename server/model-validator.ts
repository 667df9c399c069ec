/**
 * POST /v1/assets/validate runs the Khronos glTF validator (`gltf-validator`) on a stored model
 * and answers its verdict as a `ValidationReport`. External resources (buffers or images a
 * model references by URI) are never fetched: the validator reports them as unloadable, since
 * an uploaded .glb must carry everything it needs.
 *
 * The validator runs in a worker thread (server/threads.ts: validator.worker.ts) with a time
 * and a heap limit, so a model that takes long to check never blocks the server.
 */
import { validateBytes, type ValidatorMessage } from 'gltf-validator';
import type { ValidationReport } from '../contract/schemas';
import { bytesSource, checkModelLimits, hasNoGeometry } from '../core/files/gltf-limits';
import { UPLOAD_RULES } from '../core/files/rules';
import { NO_MESH_DETAIL } from '../core/files/validate';
import { fail } from './http/errors';
import { runInThread, ThreadLimitError, type ThreadLimits } from './threads';

/** The validator's limits: far above the second or two a 50 MB model takes. */
export const VALIDATOR_LIMITS: ThreadLimits = { timeoutMs: 30_000, heapMb: 512 };

/** Messages listed per severity; the counts and `valid` always cover all of them. */
const MAX_LISTED_MESSAGES = 100;

const ERROR = 0;
const WARNING = 1;

function listed(messages: ValidatorMessage[], severity: number): ValidationReport['errors'] {
  return messages
    .filter((m) => m.severity === severity)
    .slice(0, MAX_LISTED_MESSAGES)
    .map(({ code, message, pointer, offset }) => ({
      code,
      message,
      severity,
      ...(pointer === undefined ? {} : { pointer }),
      ...(offset === undefined ? {} : { offset }),
    }));
}

/**
 * Validates the bytes of a glTF binary in a worker thread. Resolves with the report, or with
 * undefined when the validator cannot read the bytes as glTF at all; rejects with
 * ThreadLimitError when the check passes `limits`.
 */
export function validateGlb(
  bytes: Uint8Array,
  uri: string,
  limits: ThreadLimits = VALIDATOR_LIMITS,
): Promise<ValidationReport | undefined> {
  return runInThread(new URL('./validator.worker.ts', import.meta.url), { bytes, uri }, limits);
}

/** validateGlb in this thread (the worker's side). */
export async function runValidator(
  bytes: Uint8Array,
  uri: string,
): Promise<ValidationReport | undefined> {
  let report;
  try {
    report = await validateBytes(bytes, {
      uri,
      format: 'glb',
      maxIssues: 0,
      writeTimestamp: false,
      externalResourceFunction: (resource) =>
        Promise.reject(new Error(`External resources are not loaded (${resource})`)),
    });
  } catch {
    return undefined;
  }
  const { issues } = report;
  return {
    valid: issues.numErrors === 0,
    errors: listed(issues.messages, ERROR),
    warnings: listed(issues.messages, WARNING),
    infos: issues.numInfos,
    hints: issues.numHints,
    stats: report.info ?? {},
  };
}

/**
 * POST /v1/assets/validate's answer for a stored model: 422 when it declares more than
 * GLTF_LIMITS allow (a model stored before the limits; checked before the validator runs) or
 * when the validator passes its time or memory; 400 when the validator cannot read it. A model
 * with no mesh to show is reported not valid, its first error `NO_MESH`.
 */
export async function validateStoredModel(
  bytes: Uint8Array,
  uri: string,
  limits: ThreadLimits = VALIDATOR_LIMITS,
): Promise<ValidationReport> {
  const overLimit = await checkModelLimits(bytesSource(bytes));
  if (overLimit) fail(422, 'MODEL_OVER_LIMIT', overLimit.message);
  let report: ValidationReport | undefined;
  try {
    report = await validateGlb(bytes, uri, limits);
  } catch (error) {
    if (!(error instanceof ThreadLimitError) || error.reason === 'crash') throw error;
    fail(
      422,
      'MODEL_CHECK_FAILED',
      error.reason === 'timeout'
        ? `The model took too long to check (${error.message.toLowerCase()})`
        : `The model needs too much memory to check (${error.message.toLowerCase()})`,
    );
  }
  if (!report)
    fail(400, 'VALIDATION_ERROR', 'modelUrl: The validator cannot read this file as glTF');
  // glTF allows a file with no mesh (an animation clip), but every model here is something to
  // see: one stored before the uploads refused clips is not valid, for the reason they give.
  if (UPLOAD_RULES.model.needsMesh && (await hasNoGeometry(bytesSource(bytes)))) {
    const noMesh = { code: 'NO_MESH', message: NO_MESH_DETAIL, severity: ERROR };
    return { ...report, valid: false, errors: [noMesh, ...report.errors] };
  }
  return report;
}
