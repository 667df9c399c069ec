/**
 * File uploads (`POST v1/uploads/{kind}`): the raw file is the request body, the server sniffs
 * its type, enforces the kind's size limit (413) and answers where the stored file is served.
 * Every failure carries `service: 'uploads'`.
 *
 * Progress: fetch can only report upload progress by streaming the body, which Chromium
 * refuses over HTTP/1.1 (and which drops the Content-Length the server checks first). So a
 * call that asks for progress sends the same request through XMLHttpRequest, plugged in as
 * ky's `fetch`: the session hooks (token refresh, 401 handling) still apply.
 */
import { z } from 'zod/mini';
import { tagService } from './errors';
import { httpClient } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { cleanFileName } from '../../core/files/file-name';
import {
  envelope,
  uploadResultSchema,
  type UploadKind,
  type UploadResult,
} from '../../contract/schemas';

export interface UploadProgress {
  /** Bytes sent so far. */
  loaded: number;
  total: number;
  /** 0 to 1. */
  fraction: number;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

const uploadsService = tagService('uploads');
/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** A fetch that sends `file` through XMLHttpRequest and reports the bytes sent. */
function progressFetch(
  file: Blob,
  onProgress: (progress: UploadProgress) => void,
): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  return (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, key) => xhr.setRequestHeader(key, value));
      xhr.responseType = 'text';
      const report = (loaded: number) =>
        onProgress({
          loaded,
          total: file.size,
          fraction: file.size === 0 ? 1 : Math.min(1, loaded / file.size),
        });
      xhr.upload.addEventListener('progress', (event) => report(event.loaded));
      xhr.addEventListener('load', () => {
        report(file.size);
        const body = NULL_BODY_STATUSES.has(xhr.status) ? null : xhr.responseText;
        resolve(
          new Response(body, {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: parseHeaders(xhr.getAllResponseHeaders()),
          }),
        );
      });
      // Like fetch: transport failures are TypeErrors, cancellation is an AbortError.
      xhr.addEventListener('error', () => reject(new TypeError('Failed to fetch')));
      xhr.addEventListener('abort', () =>
        reject(new DOMException('The upload was cancelled', 'AbortError')),
      );
      if (request.signal.aborted) {
        reject(new DOMException('The upload was cancelled', 'AbortError'));
        return;
      }
      request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
      report(0);
      xhr.send(file);
    });
  };
}

/** Uploads one file for a field of `kind`; answers `{ url, name, size, contentType }`. */
export function uploadFile(
  kind: UploadKind,
  file: File,
  { onProgress, signal }: UploadOptions = {},
): Promise<UploadResult> {
  return uploadsService(async () => {
    const response = await httpClient()(endpoint(ENDPOINTS.upload, { kind }), {
      method: 'post',
      body: file,
      headers: {
        'content-type': file.type || 'application/octet-stream',
        // Kept as the name shown and downloaded; the storage key stays random. The server drops
        // bidirectional controls too; dropping them here keeps what the user sees the same.
        'x-file-name': encodeURIComponent(cleanFileName(file.name) ?? ''),
      },
      // Large models take longer than an API call; cancel with `signal` instead.
      timeout: false,
      ...(signal === undefined ? {} : { signal }),
      ...(onProgress === undefined || typeof XMLHttpRequest === 'undefined'
        ? {}
        : { fetch: progressFetch(file, onProgress) }),
    });
    const body: unknown = JSON.parse(await response.text());
    return z.parse(envelope(uploadResultSchema), body).data;
  });
}
