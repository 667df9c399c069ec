/**
 * POST /v1/assets/validate runs the Khronos glTF validator (`gltf-validator`) on a stored model
 * and answers its verdict as a `ValidationReport`. External resources (buffers or images a
 * model references by URI) are never fetched: the validator reports them as unloadable, since
 * an uploaded .glb must carry everything it needs.
 */
import { validateBytes, type ValidatorMessage } from 'gltf-validator';
import type { ValidationReport } from '../src/api/schemas';

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
 * Validates the bytes of a glTF binary. Resolves with the report, or with undefined when the
 * validator cannot read the bytes as glTF at all.
 */
export async function validateGlb(
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
