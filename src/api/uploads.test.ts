import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors';
import { configureHttp } from './http';
import { configureSession } from './session-bridge';
import { jsonResponse, signedInSession } from './testing';
import { uploadFile, type UploadProgress } from './uploads';

const RESULT = { url: '/files/abc.png', name: 'icon.png', size: 5, contentType: 'image/png' };
const file = () => new File([new Uint8Array([1, 2, 3, 4, 5])], 'icon.png', { type: 'image/png' });

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** A fetch that records the raw request (the body is bytes, not JSON) and answers `respond`. */
function rawFetch(respond: () => Response) {
  const sent: Sent[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    sent.push({
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: new Uint8Array(await request.arrayBuffer()),
    });
    return respond();
  };
  configureHttp({ baseUrl: 'http://api.test/', fetch });
  return sent;
}

/** A minimal XMLHttpRequest that reports two progress steps and answers `status`/`body`. */
function fakeXhr(status: number, body: unknown) {
  const requests: Array<{ method: string; url: string; headers: Record<string, string> }> = [];
  class FakeXhr extends EventTarget {
    upload = new EventTarget();
    status = 0;
    statusText = '';
    responseText = '';
    responseType = '';
    private request = { method: '', url: '', headers: {} as Record<string, string> };
    open(method: string, url: string) {
      this.request = { method, url, headers: {} };
      requests.push(this.request);
    }
    setRequestHeader(key: string, value: string) {
      this.request.headers[key] = value;
    }
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n';
    }
    abort() {
      this.dispatchEvent(new Event('abort'));
    }
    send(sent: Blob) {
      setTimeout(() => {
        for (const loaded of [2, sent.size]) {
          this.upload.dispatchEvent(Object.assign(new Event('progress'), { loaded }));
        }
        this.status = status;
        this.responseText = JSON.stringify(body);
        this.dispatchEvent(new Event('load'));
      }, 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return requests;
}

beforeEach(() => {
  configureSession(signedInSession());
});

afterEach(() => {
  configureSession(null);
  vi.unstubAllGlobals();
});

describe('uploadFile', () => {
  it('posts the raw file to v1/uploads/{kind} and answers where it is stored', async () => {
    const sent = rawFetch(() => jsonResponse(200, { data: RESULT }));
    const named = new File([new Uint8Array([1, 2, 3, 4, 5])], 'icône bleue.png', {
      type: 'image/png',
    });
    await expect(uploadFile('icon', named)).resolves.toEqual(RESULT);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', url: 'http://api.test/v1/uploads/icon' });
    expect(sent[0]?.headers['content-type']).toBe('image/png');
    expect(sent[0]?.headers.authorization).toMatch(/^Bearer /);
    // The original name travels percent-encoded (headers are Latin-1 only).
    expect(sent[0]?.headers['x-file-name']).toBe('ic%C3%B4ne%20bleue.png');
    expect([...(sent[0]?.body ?? [])]).toEqual([1, 2, 3, 4, 5]);
  });

  it('sends the name without a right-to-left override, so it cannot disguise its extension', async () => {
    const sent = rawFetch(() => jsonResponse(200, { data: RESULT }));
    // Shown as "invoiceexe.png" with the override.
    const named = new File([new Uint8Array([1])], 'invoice\u202Egnp.exe', { type: 'image/png' });
    await uploadFile('icon', named);
    expect(sent[0]?.headers['x-file-name']).toBe('invoicegnp.exe');
  });

  it("tags a refused upload with service 'uploads' and keeps the server's message", async () => {
    rawFetch(() =>
      jsonResponse(413, { status: 413, code: 'FILE_TOO_LARGE', message: 'At most 5 MB' }),
    );
    const error: unknown = await uploadFile('icon', file()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 413,
      code: 'FILE_TOO_LARGE',
      message: 'At most 5 MB',
      service: 'uploads',
    });
  });

  it('reports progress through XMLHttpRequest with the session header', async () => {
    rawFetch(() => {
      throw new Error('fetch must not be used when progress is asked for');
    });
    const requests = fakeXhr(200, { data: RESULT });
    const progress: UploadProgress[] = [];
    await expect(
      uploadFile('model', file(), { onProgress: (p) => progress.push(p) }),
    ).resolves.toEqual(RESULT);
    expect(requests[0]).toMatchObject({ method: 'POST', url: 'http://api.test/v1/uploads/model' });
    expect(requests[0]?.headers.authorization).toMatch(/^Bearer /);
    expect(progress.map((p) => p.fraction)).toEqual([0, 0.4, 1, 1]);
    expect(progress.at(-1)).toEqual({ loaded: 5, total: 5, fraction: 1 });
  });

  it('rejects a failed progress upload like any other', async () => {
    fakeXhr(500, { status: 500, code: 'STORAGE_FAILED', message: 'Disk full' });
    await expect(
      uploadFile('texture', file(), { onProgress: () => undefined }),
    ).rejects.toMatchObject({ status: 500, code: 'STORAGE_FAILED', service: 'uploads' });
  });

  it('is cancelled by its signal', async () => {
    fakeXhr(200, { data: RESULT });
    const controller = new AbortController();
    controller.abort();
    await expect(
      uploadFile('icon', file(), { onProgress: () => undefined, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED', service: 'uploads' });
  });
});
