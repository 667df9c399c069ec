/**
 * An asset's applications (list, add, move, remove), syncing an application asset, placing
 * morphed assets in an application, the application export, and cage mesh model addresses.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import {
  applicationAssetSchema,
  applicationMorphedAssetSchema,
  assetApplicationSchema,
  assetExportSchema,
  cageMeshSchema,
  listResponseSchema,
  type AssetApplication,
} from '../contract/schemas';
import { MB } from '../core/files/rules';
import { fileUrl } from './storage';
import { dataOf, expectError, useRoleTokens, useTestApp, type JsonResponse } from './test-app';
import { readAvatar, readPng } from './test-files';
import { placeSql } from './positions';

const t = useTestApp({ PUBLIC_URL: 'https://avatars.example' });
const tokens = useRoleTokens(t);

const del = (path: string, body: unknown, token?: string) =>
  t.request('DELETE', path, { body, token });
const placement = (response: JsonResponse) => assetApplicationSchema.parse(dataOf(response));
const cageMesh = (response: JsonResponse) => cageMeshSchema.parse(dataOf(response));
const page = listResponseSchema(assetApplicationSchema);
const placedList = z.array(applicationMorphedAssetSchema);

async function one<T>(sql: string, params: string[] = []): Promise<T> {
  const { rows } = await t.db.query<T>(sql, params);
  return rows[0]!;
}

/** The application's asset ids in order, checking the places shown are exactly 1..N. */
async function order(applicationId: string): Promise<string[]> {
  const { rows } = await t.db.query<{ asset_id: string; position: number }>(
    `SELECT x.asset_id, ${placeSql('application_assets', 'x')} AS position
     FROM application_assets x WHERE x.application_id = $1 ORDER BY x.position, x.rank, x.id`,
    [applicationId],
  );
  expect(rows.map((row) => row.position)).toEqual(rows.map((_, i) => i + 1));
  return rows.map((row) => row.asset_id);
}

/** The events of `assetId` with `routingKey`, oldest first. */
async function events(assetId: string, routingKey: string) {
  const { rows } = await t.db.query<{ actor_id: string | null; data: Record<string, unknown> }>(
    'SELECT actor_id, data FROM asset_events WHERE asset_id = $1 AND routing_key = $2 ORDER BY seq',
    [assetId, routingKey],
  );
  return rows;
}

/** An application and an asset that is not in it yet. */
async function freshPair() {
  return one<{ application_id: string; asset_id: string }>(
    `SELECT ap.id AS application_id, a.id AS asset_id FROM applications ap CROSS JOIN assets a
     WHERE NOT EXISTS (SELECT 1 FROM application_assets x
                       WHERE x.application_id = ap.id AND x.asset_id = a.id)
       AND EXISTS (SELECT 1 FROM application_assets y WHERE y.application_id = ap.id)
     ORDER BY ap.name, a.position, a.rank LIMIT 1`,
  );
}

async function storeFile(bytes: Uint8Array): Promise<string> {
  const file = await t.storage.put(new Blob([new Uint8Array(bytes)]).stream(), {
    maxBytes: 60 * MB,
  });
  return fileUrl(file.key);
}

describe('GET /v1/assets/{id}/application', () => {
  it('pages the applications holding the asset, by application name', async () => {
    const { asset_id: assetId, n } = await one<{ asset_id: string; n: number }>(
      `SELECT asset_id, count(*)::int AS n FROM application_assets
       GROUP BY asset_id ORDER BY count(*) DESC, asset_id LIMIT 1`,
    );
    expect(n).toBeGreaterThan(1);
    const all = page.parse(
      (await t.get(`/v1/assets/${assetId}/application`, tokens.developer)).body,
    );
    expect(all.pagination.totalDocs).toBe(n);
    const names = all.data.map((row) => row.applicationName);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const row of all.data) {
      expect(row.assetId).toBe(assetId);
      const stored = await one<{ position: number; application_id: string }>(
        `SELECT ${placeSql('application_assets', 'x')} AS position, x.application_id
         FROM application_assets x WHERE x.id = $1`,
        [row.id],
      );
      expect(row).toMatchObject({
        position: stored.position,
        applicationId: stored.application_id,
      });
    }
    const first = page.parse(
      (await t.get(`/private/v1/assets/${assetId}/application?limit=1&order=-name`, tokens.admin))
        .body,
    );
    expect(first.data[0]?.applicationName).toBe(names.at(-1));
    const searched = page.parse(
      (await t.get(`/v1/assets/${assetId}/application?search=${names[0]}`, tokens.admin)).body,
    );
    expect(searched.data.map((row) => row.applicationName)).toContain(names[0]);

    expectError(await t.get(`/v1/assets/${assetId}/application`), 401);
    expectError(await t.get(`/v1/assets/${assetId}/application`, tokens.user), 403, 'FORBIDDEN');
    expectError(await t.get(`/private/v1/assets/${assetId}/application`, tokens.user), 403);
    expectError(await t.get('/v1/assets/nope/application', tokens.admin), 404, 'NOT_FOUND');
    expectError(await t.get(`/v1/assets/${assetId}/application?order=x`, tokens.admin), 400);
  });
});

describe('adding, moving and removing an asset in an application', () => {
  it('adds at the end, moves, removes and renumbers, recording each event', async () => {
    const { application_id: applicationId, asset_id: assetId } = await freshPair();
    const before = await order(applicationId);
    const path = `/v1/assets/${assetId}/application`;

    const added = placement(await t.post(path, { applicationId }, tokens.developer));
    expect(added).toMatchObject({ applicationId, assetId, position: before.length + 1 });
    expect(applicationAssetSchema.parse(added).syncedAt).toBeNull();
    expect(await order(applicationId)).toEqual([...before, assetId]);

    const moved = placement(await t.patch(path, { applicationId, position: 2 }, tokens.developer));
    expect(moved).toMatchObject({ id: added.id, position: 2 });
    expect(await order(applicationId)).toEqual([before[0], assetId, ...before.slice(1)]);

    const removed = placement(await del(path, { applicationId }, tokens.developer));
    expect(removed).toMatchObject({ id: added.id, position: 2 });
    expect(await order(applicationId)).toEqual(before);
    expectError(await del(path, { applicationId }, tokens.developer), 404, 'NOT_FOUND');

    const keys = [
      'asset.added-to-application.v1',
      'asset.application-updated.v1',
      'asset.application-deleted.v1',
    ];
    const recorded = await Promise.all(keys.map((key) => events(assetId, key)));
    expect(recorded.map((rows) => rows.length)).toEqual([1, 1, 1]);
    expect(recorded.flat().every((row) => row.actor_id === tokens.developerId)).toBe(true);
    expect(recorded[0]![0]!.data).toEqual({
      applicationId,
      applicationAssetId: added.id,
      position: before.length + 1,
    });
    expect(recorded[1]![0]!.data).toMatchObject({ position: { from: before.length + 1, to: 2 } });
    expect(recorded[2]![0]!.data).toEqual({ applicationId, applicationAssetId: added.id });
  });

  it('adds at a given position, and past the end means last', async () => {
    const { application_id: applicationId, asset_id: assetId } = await freshPair();
    const before = await order(applicationId);
    const path = `/private/v1/assets/${assetId}/application`;
    expect(
      placement(await t.post(path, { applicationId, position: 1 }, tokens.admin)).position,
    ).toBe(1);
    expect(await order(applicationId)).toEqual([assetId, ...before]);
    const last = placement(await t.patch(path, { applicationId, position: 9999 }, tokens.admin));
    expect(last.position).toBe(before.length + 1);
    await del(path, { applicationId }, tokens.admin);
    const again = placement(await t.post(path, { applicationId, position: 9999 }, tokens.admin));
    expect(again.position).toBe(before.length + 1);
    await del(path, { applicationId }, tokens.admin);
  });

  it('places a locked asset too: the lock guards the asset, not the application list', async () => {
    const { application_id: applicationId, asset_id: assetId } = await freshPair();
    await t.db.query('UPDATE assets SET locked = true WHERE id = $1', [assetId]);
    const path = `/v1/assets/${assetId}/application`;
    expect(placement(await t.post(path, { applicationId }, tokens.developer)).asset.locked).toBe(
      true,
    );
    expect(
      placement(await t.patch(path, { applicationId, position: 1 }, tokens.developer)).position,
    ).toBe(1);
    expect(placement(await del(path, { applicationId }, tokens.developer)).assetId).toBe(assetId);
    await t.db.query('UPDATE assets SET locked = false WHERE id = $1', [assetId]);
  });

  it('answers 400, 401, 403, 404 and 409 for bad calls and changes nothing', async () => {
    const { application_id: applicationId, asset_id: assetId } = await freshPair();
    const inApplication = await one<{ asset_id: string }>(
      'SELECT asset_id FROM application_assets WHERE application_id = $1 LIMIT 1',
      [applicationId],
    );
    const before = await order(applicationId);
    const eventCount = async () =>
      (await one<{ n: number }>('SELECT count(*)::int AS n FROM asset_events')).n;
    const eventsBefore = await eventCount();
    const path = `/v1/assets/${assetId}/application`;
    const conflict = expectError(
      await t.post(
        `/v1/assets/${inApplication.asset_id}/application`,
        { applicationId },
        tokens.admin,
      ),
      409,
      'CONFLICT',
    );
    expect(conflict.message).toContain(applicationId);
    const unknownApp = expectError(
      await t.post(path, { applicationId: 'nope' }, tokens.admin),
      400,
    );
    expect(unknownApp.message).toContain('applicationId');
    expectError(await t.post('/v1/assets/nope/application', { applicationId }, tokens.admin), 404);
    expectError(await t.post(path, { applicationId, position: 0 }, tokens.admin), 400);
    expectError(await t.post(path, { position: 1 }, tokens.admin), 400, 'VALIDATION_ERROR');
    expectError(await t.patch(path, { applicationId }, tokens.admin), 400);
    expectError(
      await t.patch(path, { applicationId, position: 1 }, tokens.admin),
      404,
      'NOT_FOUND',
    );
    expectError(await del(path, {}, tokens.admin), 400);
    expectError(await del(path, { applicationId: 'nope' }, tokens.admin), 404);
    expectError(await t.post(path, { applicationId }), 401);
    for (const token of [tokens.user, tokens.anonymous]) {
      expectError(await t.post(path, { applicationId }, token), 403);
      expectError(await t.patch(path, { applicationId, position: 1 }, token), 403);
      expectError(await del(path, { applicationId }, token), 403);
    }
    expectError(
      await t.post(`/private/v1/assets/${assetId}/application`, { applicationId }, tokens.user),
      403,
    );
    expect(await order(applicationId)).toEqual(before);
    expect(await eventCount()).toBe(eventsBefore);
  });
});

describe('POST /v1/application-assets/{id}/sync-with-parent', () => {
  it('sets syncedAt and records applicationUpdated with synced: true', async () => {
    const row = await one<{ id: string; asset_id: string; application_id: string }>(
      'SELECT id, asset_id, application_id FROM application_assets ORDER BY id LIMIT 1',
    );
    t.advance(60_000);
    const synced = applicationAssetSchema.parse(
      dataOf(
        await t.post(`/v1/application-assets/${row.id}/sync-with-parent`, {}, tokens.developer),
      ),
    );
    expect(synced).toMatchObject({ id: row.id, syncedAt: t.clock.current.toISOString() });
    const listed = page.parse(
      (await t.get(`/v1/assets/${row.asset_id}/application`, tokens.admin)).body,
    );
    expect(listed.data.find((r: AssetApplication) => r.id === row.id)?.syncedAt).toBe(
      synced.syncedAt,
    );
    const recorded = await events(row.asset_id, 'asset.application-updated.v1');
    expect(recorded.at(-1)?.data).toEqual({
      applicationId: row.application_id,
      applicationAssetId: row.id,
      synced: true,
    });
    // The private twin, without a body.
    const again = await t.request(
      'POST',
      `/private/v1/application-assets/${row.id}/sync-with-parent`,
      {
        token: tokens.admin,
      },
    );
    expect(applicationAssetSchema.parse(dataOf(again)).id).toBe(row.id);
    expectError(
      await t.post('/v1/application-assets/nope/sync-with-parent', {}, tokens.admin),
      404,
    );
    expectError(
      await t.post(`/v1/application-assets/${row.id}/sync-with-parent`, {}, tokens.user),
      403,
    );
    expectError(await t.post(`/v1/application-assets/${row.id}/sync-with-parent`, {}), 401);
  });
});

describe('POST /v1/application-morphed-assets', () => {
  it('places morphed assets in an application and records it on their source assets', async () => {
    const application = await one<{ id: string }>(
      'SELECT id FROM applications ORDER BY name LIMIT 1',
    );
    const { rows: morphed } = await t.db.query<{ id: string; source_asset_id: string }>(
      'SELECT id, source_asset_id FROM morphed_assets ORDER BY id LIMIT 3',
    );
    const [first, second, third] = morphed as [
      (typeof morphed)[0],
      (typeof morphed)[0],
      (typeof morphed)[0],
    ];
    const placed = placedList.parse(
      dataOf(
        await t.post(
          '/v1/application-morphed-assets',
          { applicationId: application.id, morphedAssetId: first.id },
          tokens.developer,
        ),
      ),
    );
    expect(placed).toHaveLength(1);
    expect(placed[0]).toMatchObject({
      applicationId: application.id,
      morphedAssetId: first.id,
      morphedAsset: { id: first.id, sourceAssetId: first.source_asset_id },
    });
    const recorded = await events(first.source_asset_id, 'asset.added-to-application.v1');
    expect(recorded.at(-1)?.data).toEqual({
      applicationId: application.id,
      morphedAssetId: first.id,
      applicationMorphedAssetId: placed[0]!.id,
    });

    const several = placedList.parse(
      dataOf(
        await t.post(
          '/private/v1/application-morphed-assets',
          { applicationId: application.id, morphedAssetIds: [second.id, third.id] },
          tokens.admin,
        ),
      ),
    );
    expect(several.map((row) => row.morphedAssetId)).toEqual([second.id, third.id]);

    const post = (body: unknown, token = tokens.admin) =>
      t.post('/v1/application-morphed-assets', body, token);
    expectError(await post({ applicationId: application.id, morphedAssetId: first.id }), 409);
    const unknown = expectError(
      await post({ applicationId: application.id, morphedAssetIds: ['x'] }),
      400,
    );
    expect(unknown.message).toContain('x');
    expectError(await post({ applicationId: 'nope', morphedAssetId: first.id }), 400);
    expectError(await post({ applicationId: application.id }), 400, 'VALIDATION_ERROR');
    expectError(
      await post({ applicationId: application.id, morphedAssetId: first.id }, tokens.user),
      403,
    );
    expectError(await t.post('/v1/application-morphed-assets', {}), 401);
    const { rows } = await t.db.query(
      'SELECT 1 FROM application_morphed_assets WHERE application_id = $1',
      [application.id],
    );
    expect(rows).toHaveLength(3);
  });
});

describe('GET /v1/assets/export/{applicationId}', () => {
  it('downloads the application assets in order with absolute file URLs', async () => {
    const application = await one<{ id: string; name: string }>(
      'SELECT id, name FROM applications ORDER BY name LIMIT 1',
    );
    const stored = await storeFile(readPng());
    const firstAsset = await one<{ asset_id: string }>(
      'SELECT asset_id FROM application_assets WHERE application_id = $1 AND position = 1',
      [application.id],
    );
    await t.db.query('UPDATE assets SET icon_url = $2 WHERE id = $1', [
      firstAsset.asset_id,
      stored,
    ]);
    const expected = await order(application.id);
    // A forged Host (or one a proxy passed on) names no address in the file: PUBLIC_URL does.
    // (The node server builds the request URL from Host; app.request takes it as given.)
    const response = await t.request(
      'GET',
      `http://evil.example/v1/assets/export/${application.id}`,
      {
        token: tokens.developer,
        headers: { host: 'evil.example' },
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${application.name}-assets.json"; filename*=UTF-8''${encodeURIComponent(`${application.name}-assets.json`)}`,
    );
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const file = assetExportSchema.parse(response.body);
    expect(file.application).toEqual(application);
    expect(file.assets.map((asset) => asset.id)).toEqual(expected);
    expect(file.assets.map((asset) => asset.position)).toEqual(expected.map((_, i) => i + 1));
    expect(file.assets[0]!.iconUrl).toBe(`https://avatars.example${stored}`);
    expect(
      file.assets.every((asset) => asset.modelUrl?.startsWith('https://avatars.example/')),
    ).toBe(true);
    expect(JSON.stringify(file)).not.toContain('evil.example');
    // The morphed assets placed above come along.
    expect(file.morphedAssets).toHaveLength(3);

    const { rows } = await t.db.query<{ asset_id: string; data: unknown }>(
      `SELECT asset_id, data FROM asset_events WHERE routing_key = 'asset.assets-exported.v1'
       ORDER BY seq`,
    );
    expect(rows.map((row) => row.asset_id)).toEqual(expected);
    expect(
      rows.every(
        (row) => JSON.stringify(row.data) === JSON.stringify({ applicationId: application.id }),
      ),
    ).toBe(true);

    expect((await t.get(`/private/v1/assets/export/${application.id}`, tokens.admin)).status).toBe(
      200,
    );
    expectError(await t.get('/v1/assets/export/nope', tokens.admin), 404, 'NOT_FOUND');
    expectError(await t.get(`/v1/assets/export/${application.id}`, tokens.user), 403);
    expectError(await t.get(`/v1/assets/export/${application.id}`), 401);
  });

  it('names the file safely whatever the application is called', async () => {
    const id = 'export-name-test';
    await t.db.query(
      `INSERT INTO applications (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)`,
      [id, 'Café "Ünïcode"', t.clock.current],
    );
    const response = await t.get(`/v1/assets/export/${id}`, tokens.admin);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Caf_ __n_code_-assets.json"; filename*=UTF-8''${encodeURIComponent('Café "Ünïcode"-assets.json')}`,
    );
    expect(assetExportSchema.parse(response.body).assets).toEqual([]);
  });
});

describe('cage mesh model addresses', () => {
  it('accept only a GLB stored on this server; their events name no asset', async () => {
    const glb = await storeFile(readAvatar('spawn-effect.glb'));
    const png = await storeFile(readPng());
    const counts = () =>
      one<{ assets: number; cageMeshes: number }>(
        `SELECT count(asset_id)::int AS "assets", count(cage_mesh_id)::int AS "cageMeshes"
         FROM asset_events`,
      );
    const before = await counts();
    const body = { name: 'Stored', gender: 'male', modelUrl: glb };
    const created = cageMesh(await t.post('/v1/cage-meshes', body, tokens.developer));
    expect(created.modelUrl).toBe(glb);
    const privateBody = { name: 'P', gender: 'female', modelUrl: glb };
    const privateOne = cageMesh(await t.post('/private/v1/cage-meshes', privateBody, tokens.admin));
    expect(privateOne.modelUrl).toBe(glb);
    const path = `/v1/cage-meshes/${created.id}`;
    for (const modelUrl of [
      '/m.glb',
      'https://example.com/m.glb',
      png,
      fileUrl(`${'b'.repeat(24)}.glb`),
    ]) {
      const error = expectError(
        await t.patch(path, { modelUrl }, tokens.developer),
        400,
        'VALIDATION_ERROR',
      );
      expect(error.message).toContain('modelUrl');
      expectError(
        await t.post('/v1/cage-meshes', { name: 'X', gender: 'male', modelUrl }, tokens.admin),
        400,
      );
      expectError(
        await t.post(
          '/private/v1/cage-meshes',
          { name: 'X', gender: 'male', modelUrl },
          tokens.admin,
        ),
        400,
      );
    }
    expect(cageMesh(await t.get(path, tokens.user)).modelUrl).toBe(glb);
    const cleared = cageMesh(await t.patch(path, { modelUrl: null }, tokens.developer));
    expect(cleared.modelUrl).toBeNull();
    const restored = cageMesh(await t.patch(path, { modelUrl: glb }, tokens.developer));
    expect(restored.modelUrl).toBe(glb);
    // Two creations and two changes; the refused ones record nothing.
    expect(await counts()).toEqual({ ...before, cageMeshes: before.cageMeshes + 4 });
  });
});

describe('bad input on these routes', () => {
  it('never causes a 500', async () => {
    const { application_id: applicationId, asset_id: assetId } = await freshPair();
    const applicationAssetId = (
      await one<{ id: string }>('SELECT id FROM application_assets LIMIT 1')
    ).id;
    const routes: [string, string][] = [
      ['POST', `/v1/assets/${assetId}/application`],
      ['PATCH', `/v1/assets/${assetId}/application`],
      ['DELETE', `/v1/assets/${assetId}/application`],
      ['POST', `/v1/application-assets/${applicationAssetId}/sync-with-parent`],
      ['POST', '/v1/application-morphed-assets'],
      ['POST', '/v1/morphed-assets/generate'],
      ['POST', '/v1/cage-meshes'],
    ];
    const values = [null, 0, -1, 1.5, 1e308, 'x'.repeat(5000), [], {}, [{}], true, '%', "'; DROP"];
    const fields = [
      'applicationId',
      'position',
      'morphedAssetId',
      'morphedAssetIds',
      'sourceAssetId',
      'bodyAssetIds',
      'name',
      'gender',
      'modelUrl',
    ];
    for (const [method, path] of routes) {
      for (const value of values) {
        for (const body of [value, Object.fromEntries(fields.map((field) => [field, value]))]) {
          const response = await t.request(method, path, { body, token: tokens.admin });
          expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        }
      }
    }
    expect(await order(applicationId)).not.toContain(assetId);
  });
});
