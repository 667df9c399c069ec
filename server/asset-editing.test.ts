import { describe, expect, it } from 'vitest';
import {
  assetEventSchema,
  assetSchema,
  authResultSchema,
  paginationSchema,
  userAssetsResultSchema,
  validationReportSchema,
  type Asset,
  type AssetCreateBody,
} from '../contract/schemas';
import { ASSET_EVENT_KEYS } from './events';
import { fileUrl } from './storage';
import { dataOf, expectError, useTestApp } from './test-app';
import {
  ANIMATION_CLIPS,
  avatarFiles,
  jpegBytes,
  psdBytes,
  readAvatar,
  readPng,
  uploadFile,
} from './test-files';

const t = useTestApp();

async function tokens() {
  const admin = await t.loginAs('admin');
  const developer = await t.loginAs('developer');
  const user = (await t.signUp()).token;
  const anonymous = authResultSchema.parse(dataOf(await t.post('/v1/auth/signup', {}))).token;
  return {
    admin: admin.token,
    adminEmail: admin.email,
    developer: developer.token,
    developerEmail: developer.email,
    user,
    anonymous,
  };
}

const asset = (response: Awaited<ReturnType<typeof t.get>>) => assetSchema.parse(dataOf(response));

async function createTag(token: string, name: string): Promise<string> {
  const data = dataOf(await t.post('/v1/tags', { name: `${name} ${Math.random()}` }, token));
  return (data as { id: string }).id;
}

async function create(token: string, body: Partial<AssetCreateBody> = {}): Promise<Asset> {
  return asset(
    await t.post(
      '/v1/assets',
      { name: 'Denim jacket', type: 'top', gender: 'unisex', ...body },
      token,
    ),
  );
}

const put = (path: string, token?: string) => t.request('PUT', path, { body: {}, token });
const del = (path: string, token?: string) => t.request('DELETE', path, { token });

const changelog = async (id: string, token: string, query = '') => {
  const body = (await t.get(`/v1/assets/${id}/backoffice-changelog${query}`, token)).body as {
    data: unknown[];
    pagination: unknown;
  };
  paginationSchema.parse(body.pagination);
  return body.data.map((row) => assetEventSchema.parse(row));
};

describe('POST /v1/assets', () => {
  it('creates an asset with its files and tags at the end of the order', async () => {
    const { developer } = await tokens();
    const model = await uploadFile(t.request, 'model', readAvatar('spawn-effect.glb'), developer);
    const icon = await uploadFile(t.request, 'icon', readPng(), developer);
    const texture = await uploadFile(t.request, 'texture', await jpegBytes(), developer);
    const source = await uploadFile(t.request, 'source', psdBytes(), developer);
    const tagId = await createTag(developer, 'Denim');
    const { totalDocs } = paginationSchema.parse(
      ((await t.get('/v1/assets?limit=1', developer)).body as { pagination: unknown }).pagination,
    );

    const fields = {
      description: 'Blue, washed',
      modelUrl: model.url,
      iconUrl: icon.url,
      textureUrl: texture.url,
      normalMapUrl: icon.url,
      sourceUrl: source.url,
      isTemplate: true,
    };
    const created = await create(developer, { ...fields, tagIds: [tagId, tagId] });
    expect(created).toMatchObject({
      name: 'Denim jacket',
      type: 'top',
      gender: 'unisex',
      ...fields,
      templateId: null,
      locked: false,
      position: totalDocs + 1,
    });
    expect(created.tags.map((tag) => tag.id)).toEqual([tagId]);
    expect(asset(await t.get(`/private/v1/assets/${created.id}`, developer))).toEqual(created);
  });

  it('refuses file addresses that are not uploads of the right kind, and unknown tags', async () => {
    const { admin } = await tokens();
    const icon = await uploadFile(t.request, 'icon', readPng(), admin);
    const cases: [Partial<AssetCreateBody>, string][] = [
      [
        { modelUrl: 'https://example.com/a.glb' },
        'modelUrl: Expected the url of an upload (/files/<key>)',
      ],
      [
        { iconUrl: '/files/../secret.png' },
        'iconUrl: Expected the url of an upload (/files/<key>)',
      ],
      [{ modelUrl: icon.url }, 'modelUrl: Expected a model upload (model/gltf-binary)'],
      [{ sourceUrl: icon.url }, 'sourceUrl: Expected a source upload (image/vnd.adobe.photoshop)'],
      [
        { textureUrl: '/files/0123456789abcdef01234567.jpg' },
        'textureUrl: No stored file /files/0123456789abcdef01234567.jpg',
      ],
      [{ tagIds: ['no-such-tag'] }, 'tagIds: Unknown tags no-such-tag'],
    ];
    for (const [body, message] of cases) {
      const response = await t.post(
        '/v1/assets',
        { name: 'X', type: 'hair', gender: 'male', ...body },
        admin,
      );
      expect(expectError(response, 400, 'VALIDATION_ERROR').message).toBe(message);
    }
  });

  it('is for admins and developers', async () => {
    const { user, anonymous } = await tokens();
    const body = { name: 'X', type: 'hair', gender: 'male' };
    expectError(await t.post('/v1/assets', body), 401, 'UNAUTHORIZED');
    expectError(await t.post('/v1/assets', body, user), 403, 'FORBIDDEN');
    expectError(await t.post('/v1/assets', body, anonymous), 403, 'FORBIDDEN');
    expectError(await t.post('/private/v1/assets', body, user), 403, 'FORBIDDEN');
  });
});

describe('PATCH /v1/assets/{id}', () => {
  it('changes any subset of the fields; null clears a file', async () => {
    const { developer } = await tokens();
    const icon = await uploadFile(t.request, 'icon', readPng(), developer);
    const created = await create(developer, { iconUrl: icon.url, description: 'old' });
    const tagId = await createTag(developer, 'Summer');
    t.advance(1000);
    const patched = asset(
      await t.patch(
        `/v1/assets/${created.id}`,
        { name: '  Linen jacket ', iconUrl: null, tagIds: [tagId] },
        developer,
      ),
    );
    expect(patched).toMatchObject({
      name: 'Linen jacket',
      iconUrl: null,
      description: 'old',
      type: 'top',
    });
    expect(patched.tags.map((tag) => tag.id)).toEqual([tagId]);
    expect(Date.parse(patched.updatedAt)).toBe(Date.parse(created.updatedAt) + 1000);
  });

  it('validates like create and answers 404 for unknown assets, 403 for users', async () => {
    const { developer, user } = await tokens();
    const created = await create(developer);
    expectError(await t.patch(`/v1/assets/${created.id}`, { gender: 'other' }, developer), 400);
    expectError(
      await t.patch(`/v1/assets/${created.id}`, { modelUrl: '/demo/a.glb' }, developer),
      400,
    );
    expectError(
      await t.patch('/v1/assets/no-such-asset', { name: 'X' }, developer),
      404,
      'NOT_FOUND',
    );
    expectError(await t.patch(`/v1/assets/${created.id}`, { name: 'X' }, user), 403, 'FORBIDDEN');
  });
});

describe('locked assets', () => {
  it('refuse edits, tagging and deletion (409) until unlocked', async () => {
    const { admin } = await tokens();
    const created = await create(admin);
    const tagId = await createTag(admin, 'Locked');
    const locked = asset(await put(`/v1/assets/${created.id}/lock`, admin));
    expect(locked.locked).toBe(true);
    expect(asset(await put(`/v1/assets/${created.id}/lock`, admin)).locked).toBe(true);

    const attempts = [
      () => t.patch(`/v1/assets/${created.id}`, { name: 'Changed' }, admin),
      () => t.post('/v1/tags/set-tag', { assetId: created.id, tagId }, admin),
      () => t.post('/v1/tags/remove-tag', { assetId: created.id, tagId }, admin),
      () => del(`/v1/assets/${created.id}`, admin),
    ];
    for (const attempt of attempts) expectError(await attempt(), 409, 'ASSET_LOCKED');
    expect(asset(await t.get(`/v1/assets/${created.id}`, admin))).toEqual(locked);

    await put(`/v1/assets/${created.id}/unlock`, admin);
    expect(asset(await t.patch(`/v1/assets/${created.id}`, { name: 'Changed' }, admin)).name).toBe(
      'Changed',
    );
    const tagged = asset(await t.post('/v1/tags/set-tag', { assetId: created.id, tagId }, admin));
    expect(tagged.tags.map((tag) => tag.id)).toEqual([tagId]);
  });

  it('lock and unlock answer 404 for unknown assets and 403 to users', async () => {
    const { admin, user } = await tokens();
    expectError(await put('/v1/assets/no-such-asset/lock', admin), 404, 'NOT_FOUND');
    const created = await create(admin);
    expectError(await put(`/v1/assets/${created.id}/lock`, user), 403, 'FORBIDDEN');
  });
});

describe('DELETE /v1/assets/{id}', () => {
  it('is for admins; the changelog outlives the asset', async () => {
    const { admin, developer } = await tokens();
    const created = await create(developer);
    expectError(await del(`/v1/assets/${created.id}`, developer), 403, 'FORBIDDEN');
    expect(asset(await del(`/v1/assets/${created.id}`, admin)).id).toBe(created.id);
    expectError(await t.get(`/v1/assets/${created.id}`, admin), 404);
    const events = await changelog(created.id, admin);
    expect(events.map((e) => e.routingKey)).toEqual([
      ASSET_EVENT_KEYS.deleted,
      ASSET_EVENT_KEYS.created,
    ]);
    expect(events[0]!.data).toEqual({ asset: created });
  });
});

describe('POST /private/v1/assets/using-template', () => {
  it('copies a template (files, tags, fields) into a new unlocked asset', async () => {
    const { developer } = await tokens();
    const icon = await uploadFile(t.request, 'icon', readPng(), developer);
    const tagId = await createTag(developer, 'Template');
    const template = await create(developer, {
      isTemplate: true,
      iconUrl: icon.url,
      tagIds: [tagId],
      description: 'base',
    });
    await put(`/v1/assets/${template.id}/lock`, developer);

    const copy = asset(
      await t.post('/private/v1/assets/using-template', { templateId: template.id }, developer),
    );
    expect(copy).toMatchObject({
      name: template.name,
      type: template.type,
      gender: template.gender,
      description: 'base',
      iconUrl: icon.url,
      isTemplate: false,
      templateId: template.id,
      locked: false,
      position: template.position + 1,
    });
    expect(copy.id).not.toBe(template.id);
    expect(copy.tags).toEqual(template.tags);
    const named = asset(
      await t.post(
        '/private/v1/assets/using-template',
        { templateId: template.id, name: 'Copy' },
        developer,
      ),
    );
    expect(named.name).toBe('Copy');
    const [created] = await changelog(named.id, developer);
    expect(created).toMatchObject({
      routingKey: ASSET_EVENT_KEYS.created,
      data: { templateId: template.id },
    });
  });

  it('needs a template (400), exists only under /private/v1, and not for users', async () => {
    const { developer, user } = await tokens();
    const plain = await create(developer);
    const response = await t.post(
      '/private/v1/assets/using-template',
      { templateId: plain.id },
      developer,
    );
    expect(expectError(response, 400, 'VALIDATION_ERROR').message).toBe(
      `templateId: Asset ${plain.id} is not a template`,
    );
    expectError(
      await t.post('/private/v1/assets/using-template', { templateId: 'nope' }, developer),
      404,
    );
    // Not a method of /v1/assets/{id}, the route that address reaches.
    expectError(
      await t.post('/v1/assets/using-template', { templateId: plain.id }, developer),
      405,
      'METHOD_NOT_ALLOWED',
    );
    expectError(
      await t.post('/private/v1/assets/using-template', { templateId: plain.id }, user),
      403,
    );
  });
});

describe('GET /v1/assets/{id}/backoffice-changelog', () => {
  it('lists every event of the asset newest first, with its key, data and actor', async () => {
    const { admin, adminEmail, developer, developerEmail } = await tokens();
    const model = await uploadFile(t.request, 'model', readAvatar('spawn-effect.glb'), developer);
    const other = await uploadFile(
      t.request,
      'model',
      readAvatar('female-animation-catwalk.glb'),
      developer,
    );
    const tagId = await createTag(developer, 'Log');
    const created = await create(developer, { modelUrl: model.url });
    t.advance(1000);
    await t.patch(`/v1/assets/${created.id}`, { name: 'Renamed' }, developer);
    t.advance(1000);
    const patched = asset(
      await t.patch(
        `/v1/assets/${created.id}`,
        { modelUrl: other.url, gender: 'female' },
        developer,
      ),
    );
    t.advance(1000);
    await t.patch(`/v1/assets/${created.id}`, { name: 'Renamed' }, developer); // no change
    await t.post('/v1/tags/set-tag', { assetId: created.id, tagId }, developer);
    t.advance(1000);
    await put(`/v1/assets/${created.id}/lock`, developer);
    await put(`/v1/assets/${created.id}/lock`, developer); // already locked
    await put(`/v1/assets/${created.id}/unlock`, admin);

    const events = await changelog(created.id, developer, '?limit=50');
    const K = ASSET_EVENT_KEYS;
    expect(events.map((e) => e.routingKey)).toEqual([
      K.locked,
      K.locked,
      K.updatedV2,
      K.updated,
      K.typeOrGenderChanged,
      K.modelUpdated,
      K.updatedV2,
      K.updated,
      K.updatedV2,
      K.updated,
      K.created,
    ]);
    expect(events[0]).toMatchObject({ data: { locked: false }, actorEmail: adminEmail });
    expect(events[1]).toMatchObject({ data: { locked: true }, actorEmail: developerEmail });
    expect(events[3]!.data).toEqual({ changes: { tagIds: { from: [], to: [tagId] } } });
    expect(events[4]!.data).toEqual({ changes: { gender: { from: 'unisex', to: 'female' } } });
    expect(events[5]!.data).toEqual({ from: model.url, to: other.url });
    expect(events[6]!.data).toEqual({ asset: patched });
    expect(events[7]!.data).toEqual({
      changes: {
        modelUrl: { from: model.url, to: other.url },
        gender: { from: 'unisex', to: 'female' },
      },
    });
    expect(events[9]!.data).toEqual({ changes: { name: { from: 'Denim jacket', to: 'Renamed' } } });
    expect(events.at(-1)).toMatchObject({ assetId: created.id, data: { asset: created } });
    expect(events.every((e) => e.assetId === created.id)).toBe(true);

    const page2 = await changelog(created.id, developer, '?limit=4&page=2');
    expect(page2.map((e) => e.id)).toEqual(events.slice(4, 8).map((e) => e.id));
    const locks = await changelog(created.id, developer, `?routingKey=${K.locked}`);
    expect(locks).toHaveLength(2);
  });

  it('records the reason a lock or unlock body gives', async () => {
    const { admin, developer } = await tokens();
    const created = await create(developer);
    const lock = (action: string, body: unknown) =>
      t.request('PUT', `/v1/assets/${created.id}/${action}`, { body, token: developer });
    expect(asset(await lock('lock', { reason: '  Approved for launch ', ticket: 7 })).locked).toBe(
      true,
    );
    expect(asset(await lock('unlock', { reason: 'Fix the normals' })).locked).toBe(false);
    expect(asset(await lock('lock', { reason: '   ' })).locked).toBe(true);
    const tooLong = expectError(await lock('unlock', { reason: 'x'.repeat(501) }), 400);
    expect(tooLong.message).toMatch(/^reason: /);
    expectError(await lock('unlock', { reason: 42 }), 400, 'VALIDATION_ERROR');

    const locks = await changelog(
      created.id,
      admin,
      `?routingKey=${ASSET_EVENT_KEYS.locked}&order=createdAt`,
    );
    expect(locks.map((event) => event.data)).toEqual([
      { locked: true, reason: 'Approved for launch' },
      { locked: false, reason: 'Fix the normals' },
      { locked: true },
    ]);
    expect(asset(await t.get(`/v1/assets/${created.id}`, admin)).locked).toBe(true);
  });

  it('records user asset assignments per asset', async () => {
    const { admin } = await tokens();
    const [first, second] = [await create(admin), await create(admin)];
    const target = await t.signUp();
    const path = `/private/v1/user-assets/${target._id}`;
    userAssetsResultSchema.parse(
      dataOf(await t.post(path, { assetIds: [first.id, second.id] }, admin)),
    );
    await t.post(path, { assetIds: [first.id] }, admin); // already assigned: no event
    await t.request('DELETE', path, { body: { assetIds: [first.id] }, token: admin });

    const keys = async (id: string) =>
      (await changelog(id, admin)).map((e) => [e.routingKey, e.data]);
    expect(await keys(first.id)).toEqual([
      [ASSET_EVENT_KEYS.userAssetsRemoved, { userId: target._id }],
      [ASSET_EVENT_KEYS.userAssetsAdded, { userId: target._id }],
      [ASSET_EVENT_KEYS.created, expect.anything()],
    ]);
    expect((await keys(second.id))[0]).toEqual([
      ASSET_EVENT_KEYS.userAssetsAdded,
      { userId: target._id },
    ]);
  });

  it('is for admins and developers; 404 for an asset that never existed', async () => {
    const { admin, user, anonymous } = await tokens();
    const created = await create(admin);
    expectError(await t.get(`/v1/assets/${created.id}/backoffice-changelog`), 401);
    expectError(await t.get(`/v1/assets/${created.id}/backoffice-changelog`, user), 403);
    expectError(await t.get(`/v1/assets/${created.id}/backoffice-changelog`, anonymous), 403);
    expectError(await t.get('/v1/assets/no-such-asset/backoffice-changelog', admin), 404);
    expectError(
      await t.get(`/v1/assets/${created.id}/backoffice-changelog?order=name`, admin),
      400,
    );
  });
});

describe('POST /v1/assets/validate', () => {
  it('finds no errors in any avatar of the fixtures (the animation clips are no models)', async () => {
    const { developer } = await tokens();
    for (const name of avatarFiles().filter((name) => !ANIMATION_CLIPS.includes(name))) {
      const { url } = await uploadFile(t.request, 'model', readAvatar(name), developer);
      const report = validationReportSchema.parse(
        dataOf(await t.post('/v1/assets/validate', { modelUrl: url }, developer)),
      );
      expect(report, name).toMatchObject({ valid: true, errors: [] });
      expect(report.stats).toMatchObject({ version: '2.0' });
    }
  });

  it('says an animation clip stored as a model has no mesh to show, as uploads refuse it', async () => {
    const { developer } = await tokens();
    for (const name of ANIMATION_CLIPS) {
      // Stored without the upload checks (a model kept from before they refused clips).
      const stored = await t.storage.put(new Blob([new Uint8Array(readAvatar(name))]).stream(), {
        maxBytes: 10 * 1024 * 1024,
        accept: () => {},
      });
      const report = validationReportSchema.parse(
        dataOf(await t.post('/v1/assets/validate', { modelUrl: fileUrl(stored.key) }, developer)),
      );
      expect(report.valid, name).toBe(false);
      expect(report.errors, name).toContainEqual({
        code: 'NO_MESH',
        message: 'The model has no mesh to show (an animation clip or a bare skeleton)',
        severity: 0,
      });
      expect(report.stats).toMatchObject({ version: '2.0' });
    }
  });

  it('reports the errors of a damaged model', async () => {
    const { developer } = await tokens();
    const bytes = readAvatar('maleIdle.glb').slice();
    // Overwrite the start of the JSON chunk (after the 12-byte header and 8-byte chunk header).
    bytes.set(new TextEncoder().encode('!!not json!!'), 20);
    const { url } = await uploadFile(t.request, 'model', bytes, developer);
    const report = validationReportSchema.parse(
      dataOf(await t.post('/v1/assets/validate', { modelUrl: url }, developer)),
    );
    expect(report.valid).toBe(false);
    expect(report.errors.length).toBeGreaterThan(0);
    expect(report.errors.every((error) => error.severity === 0 && error.message !== '')).toBe(true);
  });

  it('needs a stored .glb (400) and a role that edits assets', async () => {
    const { developer, user } = await tokens();
    const icon = await uploadFile(t.request, 'icon', readPng(), developer);
    expect(
      expectError(await t.post('/v1/assets/validate', { modelUrl: icon.url }, developer), 400)
        .message,
    ).toBe('modelUrl: Expected a model upload (model/gltf-binary)');
    expectError(
      await t.post(
        '/v1/assets/validate',
        { modelUrl: '/files/0123456789abcdef01234567.glb' },
        developer,
      ),
      400,
    );
    expectError(await t.post('/v1/assets/validate', { modelUrl: icon.url }, user), 403);
  });
});

describe('services that are not configured', () => {
  it('generate-icon-from-model and predict-texture answer 501 naming the setting', async () => {
    const { developer, user } = await tokens();
    const created = await create(developer);
    const icon = expectError(
      await t.request('POST', `/v1/assets/${created.id}/generate-icon-from-model`, {
        token: developer,
      }),
      501,
      'NOT_IMPLEMENTED',
    );
    expect(icon.message).toContain('ICON_RENDERER_URL');
    const model = await uploadFile(t.request, 'model', readAvatar('spawn-effect.glb'), developer);
    const texture = expectError(
      await t.post('/private/v1/assets/predict-texture', { modelUrl: model.url }, developer),
      501,
      'NOT_IMPLEMENTED',
    );
    expect(texture.message).toContain('TEXTURE_PREDICTOR_URL');
    expectError(await t.post('/v1/assets/predict-texture', { modelUrl: model.url }, user), 403);
    expect(asset(await t.get(`/v1/assets/${created.id}`, developer)).iconUrl).toBeNull();
  });
});
