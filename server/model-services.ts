/**
 * The outside model services: an icon renderer and a texture predictor, each reached at a URL
 * from the configuration (501 naming the variable when unset). The stored model is streamed to
 * the service and the image it answers is stored under the upload rules of its kind.
 */
import { type UploadKind } from '../contract/schemas';
import { fail } from './http/errors';
import { fileUrl, type Storage, type StoredFile } from './storage';
import { storeUpload } from './routes/uploads';

/** How long the icon renderer or texture predictor may take. */
const SERVICE_TIMEOUT_MS = 120_000;

/** The URL of an optional service, or 501 naming the variable that would configure it. */
export function serviceUrl(url: string | undefined, variable: string, what: string): string {
  return (
    url ??
    fail(
      501,
      'NOT_IMPLEMENTED',
      `${what} is not configured on this server: set ${variable} to the URL of a service that does it`,
    )
  );
}

/**
 * Sends a stored model to a service (POST, body = the .glb bytes) and stores the image it
 * answers under the rules of `kind`. Failures and refused answers are 502 BAD_GATEWAY.
 */
export async function runModelService(
  storage: Storage,
  service: { url: string; name: string },
  model: StoredFile,
  kind: UploadKind,
): Promise<StoredFile> {
  const found = await storage.get(model.key);
  if (!found) fail(400, 'VALIDATION_ERROR', `modelUrl: No stored file ${fileUrl(model.key)}`);
  let response: Response;
  try {
    response = await fetch(service.url, {
      method: 'POST',
      headers: { 'content-type': model.contentType },
      body: found.stream,
      duplex: 'half',
      signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS),
    } as RequestInit & { duplex: 'half' });
  } catch (error) {
    await found.stream.cancel().catch(() => undefined);
    fail(502, 'BAD_GATEWAY', `The ${service.name} could not be reached: ${String(error)}`);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    fail(502, 'BAD_GATEWAY', `The ${service.name} answered HTTP ${response.status}`);
  }
  try {
    return await storeUpload(storage, kind, response.body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    fail(502, 'BAD_GATEWAY', `The ${service.name} answered an unusable ${kind}: ${reason}`);
  }
}
