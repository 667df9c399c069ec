// The icon renderer and texture predictor when configured: a local stand-in service receives
// the model and answers an image (or fails), and the API stores or refuses what it answers.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { assetSchema, uploadResultSchema } from '../contract/schemas';
import { dataOf, expectError, useTestApp } from './test-app';
import { readAvatar, readPng, uploadFile } from './test-files';

/** What the stand-in answers next, and what it received. */
const service = {
  answer: { status: 200, body: readPng() as Uint8Array },
  received: [] as { path: string; contentType: string | undefined; bytes: number }[],
};

async function bodyOf(request: IncomingMessage): Promise<number> {
  let bytes = 0;
  for await (const chunk of request) bytes += (chunk as Buffer).byteLength;
  return bytes;
}

const server = createServer((request, response) => {
  void bodyOf(request).then((bytes) => {
    service.received.push({
      path: request.url ?? '',
      contentType: request.headers['content-type'],
      bytes,
    });
    response.writeHead(service.answer.status).end(service.answer.body);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const t = useTestApp({
  ICON_RENDERER_URL: `${base}/icon`,
  TEXTURE_PREDICTOR_URL: `${base}/texture`,
});

/** Creates a male asset through the API. */
async function createAsset(
  fields: { name: string; type: string; modelUrl?: string },
  token: string,
) {
  return assetSchema.parse(
    dataOf(await t.post('/v1/assets', { ...fields, gender: 'male' }, token)),
  );
}

describe('with ICON_RENDERER_URL', () => {
  it('sends the model to the renderer and stores the PNG it answers as the icon', async () => {
    const { token } = await t.loginAs('developer');
    const model = readAvatar('spawn-effect.glb');
    const { url } = await uploadFile(t.request, 'model', model, token);
    const created = await createAsset({ name: 'Rendered', type: 'body', modelUrl: url }, token);
    service.answer = { status: 200, body: readPng() };
    const path = `/v1/assets/${created.id}/generate-icon-from-model`;
    const updated = assetSchema.parse(dataOf(await t.request('POST', path, { token })));

    // The delivery version is rendered: the same picture from fewer bytes.
    expect(created.modelDelivery?.status).toBe('ready');
    expect(created.modelDelivery!.size).toBeLessThan(model.byteLength);
    expect(service.received.at(-1)).toEqual({
      path: '/icon',
      contentType: 'model/gltf-binary',
      bytes: created.modelDelivery!.size,
    });
    expect(updated.iconUrl).toMatch(/^\/files\/[0-9a-f]{24}\.png$/);
    const icon = await t.request('GET', updated.iconUrl!);
    expect(icon.headers.get('content-length')).toBe(String(readPng().byteLength));
  });

  it('answers 502 when the renderer fails or answers something that is not an icon', async () => {
    const { token } = await t.loginAs('developer');
    const { url } = await uploadFile(t.request, 'model', readAvatar('spawn-effect.glb'), token);
    const created = await createAsset({ name: 'X', type: 'body', modelUrl: url }, token);
    const path = `/v1/assets/${created.id}/generate-icon-from-model`;

    service.answer = { status: 500, body: new TextEncoder().encode('boom') };
    const failed = expectError(await t.request('POST', path, { token }), 502, 'BAD_GATEWAY');
    expect(failed.message).toBe('The icon renderer answered HTTP 500');

    service.answer = { status: 200, body: readAvatar('maleIdle.glb') };
    const wrong = expectError(await t.request('POST', path, { token }), 502, 'BAD_GATEWAY');
    expect(wrong.message).toBe(
      'The icon renderer answered an unusable icon: This file is a glTF binary model (.glb), not a PNG image',
    );
    expect(
      assetSchema.parse(dataOf(await t.get(`/v1/assets/${created.id}`, token))).iconUrl,
    ).toBeNull();
  });

  it('needs an asset with a model, and an unlocked one', async () => {
    const { token } = await t.loginAs('admin');
    const bare = await createAsset({ name: 'X', type: 'hair' }, token);
    const path = `/v1/assets/${bare.id}/generate-icon-from-model`;
    expectError(await t.request('POST', path, { token }), 400, 'VALIDATION_ERROR');
    await t.request('PUT', `/v1/assets/${bare.id}/lock`, { body: {}, token });
    expectError(await t.request('POST', path, { token }), 409, 'ASSET_LOCKED');
  });
});

describe('with TEXTURE_PREDICTOR_URL', () => {
  it('stores the predicted texture and answers where it is', async () => {
    const { token } = await t.loginAs('developer');
    const { url } = await uploadFile(t.request, 'model', readAvatar('spawn-effect.glb'), token);
    service.answer = { status: 200, body: readPng('basn2c08.png') };
    const response = await t.post('/v1/assets/predict-texture', { modelUrl: url }, token);
    const texture = uploadResultSchema.parse(dataOf(response));
    expect(texture).toMatchObject({
      contentType: 'image/png',
      size: readPng('basn2c08.png').byteLength,
    });
    expect(service.received.at(-1)?.path).toBe('/texture');
  });
});
