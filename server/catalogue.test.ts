import { describe, expect, it } from 'vitest';
import {
  applicationAssetSchema,
  applicationRowSchema,
  assetSchema,
  cageMeshSchema,
  listResponseSchema,
  morphQueueEntrySchema,
  morphStatusListSchema,
  morphedAssetSchema,
} from '../contract/schemas';
import { dataOf, expectError, useRoleTokens, useTestApp, type JsonResponse } from './test-app';
import { glbOfSize, uploadFile } from './test-files';

const t = useTestApp();
const tokens = useRoleTokens(t);

function ok(response: JsonResponse) {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}
const put = (path: string, body: unknown, token?: string) =>
  t.request('PUT', path, { body, token });
const del = (path: string, token?: string) => t.request('DELETE', path, { token });

async function firstId(sql: string): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(sql);
  return rows[0]!.id;
}

describe('assets', () => {
  it('GET /v1/assets/{id} answers the asset or 404', async () => {
    const id = await firstId('SELECT id FROM assets ORDER BY position LIMIT 1');
    const asset = assetSchema.parse(dataOf(await t.get(`/v1/assets/${id}`, tokens.anonymous)));
    expect(asset).toMatchObject({ id, position: 1 });
    expectError(await t.get('/v1/assets/nope', tokens.admin), 404, 'NOT_FOUND');
    expectError(await t.get(`/v1/assets/${id}`), 401);
  });

  it('locks and unlocks, and a locked asset cannot be deleted', async () => {
    const id = await firstId('SELECT id FROM assets WHERE NOT locked ORDER BY position LIMIT 1');
    const locked = assetSchema.parse(
      dataOf(await put(`/v1/assets/${id}/lock`, {}, tokens.developer)),
    );
    expect(locked.locked).toBe(true);
    expect(locked.updatedAt).toBe(t.clock.current.toISOString());
    expectError(await del(`/v1/assets/${id}`, tokens.admin), 409, 'ASSET_LOCKED');
    const body = { reason: 'ok' };
    const unlocked = assetSchema.parse(
      dataOf(await put(`/v1/assets/${id}/unlock`, body, tokens.admin)),
    );
    expect(unlocked.locked).toBe(false);
    expectError(await put(`/v1/assets/${id}/lock`, {}, tokens.user), 403, 'FORBIDDEN');
    expectError(await put(`/v1/assets/${id}/lock`, [], tokens.admin), 400, 'VALIDATION_ERROR');
    expectError(await put('/v1/assets/nope/lock', {}, tokens.admin), 404);
    expectError(await put(`/private/v1/assets/${id}/lock`, {}, tokens.user), 403);
    expect(
      assetSchema.parse(dataOf(await put(`/private/v1/assets/${id}/lock`, {}, tokens.admin)))
        .locked,
    ).toBe(true);
  });

  it('DELETE needs delete Asset (admins only) and answers the deleted asset', async () => {
    // An asset no morph refers to, so the queue counts below stay as seeded.
    const id = await firstId(
      `SELECT id FROM assets a WHERE NOT locked AND NOT EXISTS (SELECT 1 FROM morph_queue q
         WHERE a.id IN (q.source_asset_id, q.body_asset_id)) ORDER BY position DESC LIMIT 1`,
    );
    expectError(await del(`/v1/assets/${id}`, tokens.developer), 403, 'FORBIDDEN');
    expect(assetSchema.parse(dataOf(await del(`/v1/assets/${id}`, tokens.admin))).id).toBe(id);
    expectError(await del(`/v1/assets/${id}`, tokens.admin), 404);
    expectError(await t.get(`/v1/assets/${id}`, tokens.admin), 404);
  });

  it('lists authorized (readable) and editable (updatable, unlocked) assets', async () => {
    const idsOf = async (path: string, token: string) => {
      const ids: string[] = [];
      for (let page = 1; ; page += 1) {
        const answer = listResponseSchema(assetSchema).parse(
          ok(await t.get(`${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`, token)),
        );
        ids.push(...answer.data.map((asset) => asset.id));
        if (!answer.pagination.hasNextPage) return ids.sort();
      }
    };
    const totalOf = async (path: string, token: string) => (await idsOf(path, token)).length;
    // What the catalogue holds, and which of it is unlocked, as the asset list reads it.
    const all = await idsOf('/v1/assets', tokens.admin);
    const unlocked = await idsOf('/v1/assets?locked=false', tokens.admin);
    expect(unlocked.length).toBeGreaterThan(0);
    expect(unlocked.length).toBeLessThan(all.length);
    expect(await idsOf('/v1/assets/authorized', tokens.anonymous)).toEqual(all);
    expect(await idsOf('/v1/assets/editable', tokens.developer)).toEqual(unlocked);
    expect(await totalOf('/v1/assets/editable?locked=true', tokens.admin)).toBe(0);
    expect(await totalOf('/v1/assets/editable', tokens.user)).toBe(0);
    expect(await totalOf('/v1/assets/authorized?type=beard', tokens.user)).toBe(20);
  });
});

describe('applications and application assets', () => {
  it('lists applications by name, finds one by id and searches', async () => {
    const page = listResponseSchema(applicationRowSchema).parse(
      ok(await t.get('/v1/applications?limit=100', tokens.developer)),
    );
    expect(page.pagination.totalDocs).toBe(6);
    const names = page.data.map((row) => row.name);
    expect(names).toEqual([...names].sort());
    const found = dataOf(await t.get(`/v1/applications/${page.data[0]!.id}`, tokens.admin));
    expect(applicationRowSchema.parse(found)).toEqual(page.data[0]);
    const search = listResponseSchema(applicationRowSchema).parse(
      ok(await t.get('/private/v1/applications?search=quest', tokens.admin)),
    );
    expect(search.data.map((row) => row.name)).toEqual(['Fitness Quest']);
    expectError(await t.get('/v1/applications/nope', tokens.admin), 404);
    expectError(await t.get('/v1/applications', tokens.user), 403);
  });

  it('lists one application’s assets in position order; applicationId is required', async () => {
    const applicationId = await firstId('SELECT id FROM applications ORDER BY name LIMIT 1');
    const { rows } = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM application_assets WHERE application_id = $1',
      [applicationId],
    );
    const page = listResponseSchema(applicationAssetSchema).parse(
      ok(
        await t.get(
          `/v1/application-assets?applicationId=${applicationId}&limit=100`,
          tokens.admin,
        ),
      ),
    );
    expect(page.pagination.totalDocs).toBe(rows[0]!.count);
    expect(page.pagination.totalDocs).toBeGreaterThanOrEqual(20);
    expect(page.data.map((row) => row.position)).toEqual(page.data.map((_, i) => i + 1));
    expect(page.data.every((row) => row.applicationId === applicationId)).toBe(true);
    const type = page.data[0]!.asset.type;
    const byType = listResponseSchema(applicationAssetSchema).parse(
      ok(
        await t.get(
          `/v1/application-assets?applicationId=${applicationId}&type=${type}`,
          tokens.admin,
        ),
      ),
    );
    expect(byType.data.every((row) => row.asset.type === type)).toBe(true);
    const byName = listResponseSchema(applicationAssetSchema).parse(
      ok(
        await t.get(
          `/v1/application-assets?applicationId=${applicationId}&order=-name`,
          tokens.admin,
        ),
      ),
    );
    expect(byName.data[0]!.asset.name >= byName.data[1]!.asset.name).toBe(true);
    const missing = expectError(await t.get('/v1/application-assets', tokens.admin), 400);
    expect(missing.message).toContain('applicationId');
  });
});

describe('cage meshes', () => {
  it('lists, filters by gender, finds by id', async () => {
    const page = listResponseSchema(cageMeshSchema).parse(
      ok(await t.get('/v1/cage-meshes?gender=female&order=-name', tokens.user)),
    );
    expect(page.pagination.totalDocs).toBe(4);
    expect(page.data.every((mesh) => mesh.gender === 'female')).toBe(true);
    const one = cageMeshSchema.parse(
      dataOf(await t.get(`/v1/cage-meshes/${page.data[0]!.id}`, tokens.user)),
    );
    expect(one).toEqual(page.data[0]);
    expectError(await t.get('/v1/cage-meshes/nope', tokens.user), 404);
    expectError(await t.get('/v1/cage-meshes', tokens.anonymous), 403);
  });

  it('creates (public and private) and patches', async () => {
    const created = cageMeshSchema.parse(
      dataOf(
        await t.post(
          '/v1/cage-meshes',
          { name: ' Tall Female ', gender: 'female' },
          tokens.developer,
        ),
      ),
    );
    expect(created).toMatchObject({ name: 'Tall Female', bodyType: null, modelUrl: null });
    const privateOne = cageMeshSchema.parse(
      dataOf(
        await t.post(
          '/private/v1/cage-meshes',
          { name: 'Kid', gender: 'unisex', bodyType: 'child' },
          tokens.admin,
        ),
      ),
    );
    expect(privateOne.bodyType).toBe('child');
    t.advance(1000);
    const patched = cageMeshSchema.parse(
      dataOf(
        await t.patch(`/v1/cage-meshes/${created.id}`, { bodyType: 'tall' }, tokens.developer),
      ),
    );
    expect(patched).toMatchObject({ name: 'Tall Female', gender: 'female', bodyType: 'tall' });
    expect(patched.updatedAt > created.updatedAt).toBe(true);
    const cleared = cageMeshSchema.parse(
      dataOf(await t.patch(`/v1/cage-meshes/${created.id}`, { bodyType: null }, tokens.developer)),
    );
    expect(cleared.bodyType).toBeNull();
    expectError(await t.post('/v1/cage-meshes', { name: '', gender: 'female' }, tokens.admin), 400);
    expectError(await t.post('/v1/cage-meshes', { name: 'X', gender: 'robot' }, tokens.admin), 400);
    expectError(await t.post('/v1/cage-meshes', { name: 'X', gender: 'male' }, tokens.user), 403);
    expectError(
      await t.post('/private/v1/cage-meshes', { name: 'X', gender: 'male' }, tokens.user),
      403,
    );
    expectError(await t.patch('/v1/cage-meshes/nope', { name: 'Y' }, tokens.admin), 404);
    expectError(await t.patch(`/v1/cage-meshes/${created.id}`, { gender: 1 }, tokens.admin), 400);
    // The private mount only creates.
    expectError(await t.get('/private/v1/cage-meshes', tokens.admin), 405);
  });
});

describe('cage mesh events', () => {
  /** The events recorded for a cage mesh, oldest first, as the event log holds them. */
  async function eventsOf(cageMeshId: string) {
    const { rows } = await t.db.query<{
      asset_id: string | null;
      routing_key: string;
      actor_id: string | null;
      data: Record<string, unknown>;
      created_at: Date;
    }>(
      `SELECT asset_id, routing_key, actor_id, data, created_at FROM asset_events
       WHERE cage_mesh_id = $1 ORDER BY seq`,
      [cageMeshId],
    );
    return rows;
  }

  it('records cage-mesh-updated for each creation and change, in its transaction', async () => {
    const developerSession = await t.loginAs('developer');
    const token = developerSession.token;
    const created = cageMeshSchema.parse(
      dataOf(await t.post('/v1/cage-meshes', { name: 'Event cage', gender: 'male' }, token)),
    );
    t.advance(1000);
    const model = await uploadFile(t.request, 'model', glbOfSize(200), token);
    const patched = cageMeshSchema.parse(
      dataOf(
        await t.patch(
          `/v1/cage-meshes/${created.id}`,
          { name: 'Event cage', bodyType: 'athletic', modelUrl: model.url },
          token,
        ),
      ),
    );
    // Nothing changes: nothing is recorded. A refused change records nothing either.
    dataOf(await t.patch(`/v1/cage-meshes/${created.id}`, { bodyType: 'athletic' }, token));
    expectError(
      await t.patch(`/v1/cage-meshes/${created.id}`, { modelUrl: '/files/nope.glb' }, token),
      400,
    );

    const events = await eventsOf(created.id);
    expect(events).toEqual([
      {
        asset_id: null,
        routing_key: 'asset.cage-mesh-updated.v1',
        actor_id: developerSession._id,
        data: { created: true, cageMesh: created },
        created_at: new Date(created.createdAt),
      },
      {
        asset_id: null,
        routing_key: 'asset.cage-mesh-updated.v1',
        actor_id: developerSession._id,
        data: {
          changes: {
            bodyType: { from: null, to: 'athletic' },
            modelUrl: { from: null, to: model.url },
          },
          cageMesh: patched,
        },
        created_at: new Date(patched.updatedAt),
      },
    ]);
    const privateOne = cageMeshSchema.parse(
      dataOf(
        await t.post('/private/v1/cage-meshes', { name: 'P', gender: 'unisex' }, tokens.admin),
      ),
    );
    expect((await eventsOf(privateOne.id)).map((event) => event.data)).toEqual([
      { created: true, cageMesh: privateOne },
    ]);
  });
});

describe('morph queue and morphed assets', () => {
  it('lists the queue with every status, filters by status and search', async () => {
    const queueList = listResponseSchema(morphQueueEntrySchema);
    const all = queueList.parse(
      ok(await t.get('/v1/morphed-asset-queue?limit=100', tokens.developer)),
    );
    expect(all.pagination.totalDocs).toBe(40);
    expect(new Set(all.data.map((entry) => entry.status))).toEqual(
      new Set(['queued', 'processing', 'completed', 'failed']),
    );
    const created = all.data.map((entry) => entry.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    // Entries name their body asset, as they do their source.
    const first = all.data[0]!;
    const body = assetSchema.parse(
      dataOf(await t.get(`/v1/assets/${first.bodyAssetId}`, tokens.admin)),
    );
    expect(first.bodyAssetName).toBe(body.name);
    const some = queueList.parse(
      ok(await t.get('/private/v1/morphed-asset-queue?status=failed&status=queued', tokens.admin)),
    );
    expect(some.pagination.totalDocs).toBe(16);
    const name = all.data[0]!.sourceAssetName;
    const searched = queueList.parse(
      ok(await t.get(`/v1/morphed-asset-queue?search=${encodeURIComponent(name)}`, tokens.admin)),
    );
    expect(searched.data.length).toBeGreaterThan(0);
    expect(searched.data.every((entry) => entry.sourceAssetName.includes(name))).toBe(true);
    expectError(await t.get('/v1/morphed-asset-queue?status=done', tokens.admin), 400);
    expectError(await t.get('/v1/morphed-asset-queue', tokens.user), 403);
  });

  it('answers the statuses of given entries on both status endpoints', async () => {
    const { rows } = await t.db.query<{ id: string; status: string }>(
      "SELECT id, status FROM morph_queue WHERE status IN ('completed', 'failed') ORDER BY created_at LIMIT 3",
    );
    const ids = rows.map((row) => row.id);
    for (const path of ['/v1/morphed-asset-queue/status', '/private/v1/morphed-assets/status']) {
      const query = `ids=${ids[0]}&ids=${ids[1]},${ids[2]}&ids=unknown`;
      const statuses = morphStatusListSchema.parse(
        dataOf(await t.get(`${path}?${query}`, tokens.admin)),
      );
      expect(statuses.map((s) => s.id)).toEqual(ids);
      for (const entry of statuses) {
        if (entry.status === 'completed') expect(entry.morphedAssetId).not.toBeNull();
        if (entry.status === 'failed') expect(entry.error).not.toBeNull();
      }
      expectError(await t.get(path, tokens.admin), 400, 'VALIDATION_ERROR');
      expectError(await t.get(`${path}?ids=a&x=1`, tokens.admin), 400, 'VALIDATION_ERROR');
    }
  });

  it('lists morphed assets (private), by source asset', async () => {
    const list = listResponseSchema(morphedAssetSchema);
    const all = list.parse(
      ok(await t.get('/private/v1/morphed-assets?limit=100&order=name', tokens.developer)),
    );
    expect(all.pagination.totalDocs).toBe(20);
    const source = all.data[0]!.sourceAssetId;
    const bySource = list.parse(
      ok(await t.get(`/private/v1/morphed-assets?sourceAssetId=${source}`, tokens.developer)),
    );
    expect(bySource.data.map((row) => row.sourceAssetId)).toEqual([source]);
    expectError(await t.get('/private/v1/morphed-assets', tokens.user), 403);
    expectError(await t.get('/v1/morphed-assets', tokens.admin), 404);
  });
});

describe('bad input on the catalogue routes', () => {
  it('never causes a 500', async () => {
    const assetId = await firstId('SELECT id FROM assets ORDER BY position LIMIT 1');
    const applicationAssetId = await firstId('SELECT id FROM application_assets LIMIT 1');
    const tagId = await firstId('SELECT id FROM tags LIMIT 1');
    const meshId = await firstId('SELECT id FROM cage_meshes LIMIT 1');
    const userId = await firstId("SELECT id FROM users WHERE role = 'admin' LIMIT 1");
    const routes: [string, string][] = [
      ['PUT', `/v1/assets/${assetId}/lock`],
      ['PATCH', `/v1/assets/${assetId}/position`],
      ['PATCH', `/v1/application-assets/${applicationAssetId}/position`],
      ['POST', '/v1/tags'],
      ['PUT', `/v1/tags/${tagId}`],
      ['POST', '/v1/tags/set-tag'],
      ['POST', '/v1/cage-meshes'],
      ['PATCH', `/v1/cage-meshes/${meshId}`],
      ['POST', `/private/v1/user-assets/${userId}`],
      ['DELETE', `/private/v1/user-assets/${userId}`],
    ];
    const values = [null, 0, -1, 1e308, 'x'.repeat(5000), [], {}, [{}], true, '%', "'; DROP"];
    const fields = ['name', 'gender', 'position', 'filter', 'assetId', 'tagId', 'assetIds'];
    for (const [method, path] of routes) {
      expectError(
        await t.request(method, path, {
          raw: '{',
          token: tokens.admin,
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'INVALID_JSON',
      );
      for (const value of values) {
        for (const body of [value, Object.fromEntries(fields.map((field) => [field, value]))]) {
          const response = await t.request(method, path, { body, token: tokens.admin });
          expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        }
      }
    }
    const nul = { name: 'a\u0000b', gender: 'male', assetIds: ['\u0000'] };
    expectError(await t.post('/v1/tags', nul, tokens.admin), 400, 'VALIDATION_ERROR');
    expectError(await t.post(`/private/v1/user-assets/${userId}`, nul, tokens.admin), 400);
    expectError(await t.get('/v1/assets/%00', tokens.admin), 400, 'VALIDATION_ERROR');
    for (const query of [
      'search=%00',
      'type=' + 'x'.repeat(300),
      'limit=99999999999999',
      'page=1e3',
    ]) {
      expect((await t.get(`/v1/assets?${query}`, tokens.admin)).status).toBe(400);
    }
  });
});
