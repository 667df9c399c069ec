import { describe, expect, it } from 'vitest';
import {
  applicationAssetSchema,
  assetSchema,
  cageMeshSchema,
  editConflictErrorSchema,
  tagRowSchema,
  userRowSchema,
  type Asset,
} from '../contract/schemas';
import { newId } from './ids';
import { placeSql } from './positions';
import { dataOf, expectError, useRoleTokens, useTestApp, type JsonResponse } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

const ifMatch = (version: number | string) => ({
  'if-match': typeof version === 'number' ? `"${version}"` : version,
});

/** PATCH (or PUT) `path` with `body`, based on `version` when given. */
const change = (
  path: string,
  body: unknown,
  token: string,
  version?: number | string,
  method = 'PATCH',
) =>
  t.request(method, path, { body, token, headers: version === undefined ? {} : ifMatch(version) });

async function createAsset(name = `Jacket ${newId()}`): Promise<Asset> {
  const body = { name, type: 'top', gender: 'unisex', description: 'Blue denim' };
  return assetSchema.parse(dataOf(await t.post('/v1/assets', body, tokens.admin)));
}

const readAsset = async (id: string) =>
  assetSchema.parse(dataOf(await t.get(`/v1/assets/${id}`, tokens.admin)));

/** The 409 EDIT_CONFLICT body of `response`. */
function conflictOf(response: JsonResponse) {
  expectError(response, 409, 'EDIT_CONFLICT');
  return editConflictErrorSchema.parse(response.body);
}

describe('versions', () => {
  it('a single-record read answers the version as an ETag and in the body', async () => {
    const asset = await createAsset();
    const read = await t.get(`/v1/assets/${asset.id}`, tokens.admin);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(assetSchema.parse(dataOf(read)).version).toBe(1);
    const saved = await change(`/v1/assets/${asset.id}`, { name: 'Renamed' }, tokens.admin, 1);
    expect(saved.headers.get('etag')).toBe('"2"');
    expect(assetSchema.parse(dataOf(saved)).version).toBe(2);
    // A save that changes nothing keeps the version.
    const same = await change(`/v1/assets/${asset.id}`, { name: 'Renamed' }, tokens.admin, 2);
    expect(same.headers.get('etag')).toBe('"2"');

    const cageMeshes = (await t.get('/v1/cage-meshes', tokens.admin)).body as { data: unknown[] };
    const cageMesh = cageMeshSchema.parse(cageMeshes.data[0]);
    const cageRead = await t.get(`/v1/cage-meshes/${cageMesh.id}`, tokens.admin);
    expect(cageRead.headers.get('etag')).toBe(`"${cageMesh.version}"`);

    const tag = tagRowSchema.parse(
      dataOf(await t.post('/v1/tags', { name: `T ${newId()}` }, tokens.admin)),
    );
    expect((await t.get(`/v1/tags/${tag.id}`, tokens.admin)).headers.get('etag')).toBe('"1"');

    const user = userRowSchema.parse(
      dataOf(await t.get(`/private/v1/users/${tokens.developerId}`, tokens.admin)),
    );
    expect(user.version).toBe(1);
    expect(
      (await t.get(`/private/v1/users/${tokens.developerId}`, tokens.admin)).headers.get('etag'),
    ).toBe('"1"');

    const applications = (await t.get('/v1/applications', tokens.admin)).body as {
      data: { id: string; version: number }[];
    };
    const application = applications.data[0]!;
    expect(
      (await t.get(`/v1/applications/${application.id}`, tokens.admin)).headers.get('etag'),
    ).toBe(`"${application.version}"`);
  });

  it('a stale change of fields nobody else changed is applied: both changes are kept', async () => {
    const asset = await createAsset();
    // B renames; A, who read version 1, saves the description.
    const b = await change(`/v1/assets/${asset.id}`, { name: 'Renamed by B' }, tokens.developer, 1);
    expect(b.status).toBe(200);
    const a = await change(`/v1/assets/${asset.id}`, { description: 'By A' }, tokens.admin, 1);
    expect(a.status).toBe(200);
    const after = await readAsset(asset.id);
    expect(after).toMatchObject({ name: 'Renamed by B', description: 'By A', version: 3 });
  });

  it('a stale change of a field changed since is refused with 409 naming the field, its value and who changed it', async () => {
    const asset = await createAsset();
    const developer = userRowSchema.parse(
      dataOf(await t.get(`/private/v1/users/${tokens.developerId}`, tokens.admin)),
    );
    expect(
      (await change(`/v1/assets/${asset.id}`, { name: 'Theirs' }, tokens.developer, 1)).status,
    ).toBe(200);
    const refused = await change(
      `/v1/assets/${asset.id}`,
      { name: 'Mine', description: 'Mine too' },
      tokens.admin,
      1,
    );
    const body = conflictOf(refused);
    expect(body.version).toBe(2);
    const [only, ...rest] = body.conflicts;
    expect(rest).toEqual([]);
    expect(only).toEqual({
      field: 'name',
      current: 'Theirs',
      changedBy: { id: tokens.developerId, email: developer.email },
      changedAt: only?.changedAt,
    });
    expect(Date.parse(only!.changedAt)).not.toBeNaN();
    // Nothing of the refused change was applied, the description neither.
    expect(await readAsset(asset.id)).toMatchObject({ name: 'Theirs', description: 'Blue denim' });
    // Sent again with the new base, it lands.
    const again = await change(
      `/v1/assets/${asset.id}`,
      { name: 'Mine', description: 'Mine too' },
      tokens.admin,
      body.version,
    );
    expect(assetSchema.parse(dataOf(again))).toMatchObject({ name: 'Mine', version: 3 });
  });

  it('a stale change that sets a changed field to its current value is no conflict', async () => {
    const asset = await createAsset();
    await change(`/v1/assets/${asset.id}`, { name: 'Same' }, tokens.developer, 1);
    const a = await change(
      `/v1/assets/${asset.id}`,
      { name: 'Same', gender: 'male' },
      tokens.admin,
      1,
    );
    expect(assetSchema.parse(dataOf(a))).toMatchObject({ name: 'Same', gender: 'male' });
  });

  it('tagging and locking count as changes of the asset (tagIds, locked)', async () => {
    const asset = await createAsset();
    const tag = tagRowSchema.parse(
      dataOf(await t.post('/v1/tags', { name: `T ${newId()}` }, tokens.admin)),
    );
    dataOf(
      await t.post('/v1/tags/set-tag', { assetId: asset.id, tagId: tag.id }, tokens.developer),
    );
    const tagged = await readAsset(asset.id);
    expect(tagged.version).toBe(2);
    const refused = conflictOf(
      await change(`/v1/assets/${asset.id}`, { tagIds: [] }, tokens.admin, 1),
    );
    expect(refused.conflicts).toMatchObject([{ field: 'tagIds', current: [tag.id] }]);
    // The name was not touched by tagging: a stale rename lands.
    expect((await change(`/v1/assets/${asset.id}`, { name: 'Kept' }, tokens.admin, 1)).status).toBe(
      200,
    );
    dataOf(
      await t.request('PUT', `/v1/assets/${asset.id}/lock`, { body: {}, token: tokens.admin }),
    );
    dataOf(
      await t.request('PUT', `/v1/assets/${asset.id}/unlock`, { body: {}, token: tokens.admin }),
    );
    expect((await readAsset(asset.id)).version).toBe(5);
  });

  it('a change without If-Match is accepted as before: the last writer wins', async () => {
    const asset = await createAsset();
    await change(`/v1/assets/${asset.id}`, { name: 'First' }, tokens.developer, 1);
    const blind = await change(`/v1/assets/${asset.id}`, { name: 'Last' }, tokens.admin);
    expect(assetSchema.parse(dataOf(blind))).toMatchObject({ name: 'Last', version: 3 });
    // `*` matches whatever is there.
    const any = await change(`/v1/assets/${asset.id}`, { name: 'Star' }, tokens.admin, '*');
    expect(assetSchema.parse(dataOf(any)).name).toBe('Star');
  });

  it('a malformed If-Match is a 400, a version that never existed a 412, a missing record a 404', async () => {
    const asset = await createAsset();
    for (const header of ['3', 'W/"1"', '"1", "2"', '"0"', '"abc"', '"99999999999"']) {
      expectError(await change(`/v1/assets/${asset.id}`, { name: 'X' }, tokens.admin, header), 400);
    }
    expectError(
      await change(`/v1/assets/${asset.id}`, { name: 'X' }, tokens.admin, 7),
      412,
      'VERSION_UNKNOWN',
    );
    dataOf(await t.request('DELETE', `/v1/assets/${asset.id}`, { token: tokens.admin }));
    expectError(await change(`/v1/assets/${asset.id}`, { name: 'X' }, tokens.admin, 1), 404);
    expectError(await t.get(`/v1/assets/${asset.id}`, tokens.admin), 404);
  });

  it('tag renames, roles, cage meshes and application entries are versioned alike', async () => {
    // Tag rename.
    const tag = tagRowSchema.parse(
      dataOf(await t.post('/v1/tags', { name: `T ${newId()}` }, tokens.admin)),
    );
    const tagPath = `/v1/tags/${tag.id}`;
    expect(
      (await change(tagPath, { name: `Theirs ${tag.id}` }, tokens.developer, 1, 'PUT')).status,
    ).toBe(200);
    const tagConflict = conflictOf(
      await change(tagPath, { name: `Mine ${tag.id}` }, tokens.admin, 1, 'PUT'),
    );
    expect(tagConflict.conflicts).toMatchObject([{ field: 'name', current: `Theirs ${tag.id}` }]);

    // Role.
    const other = await t.loginAs('user');
    const userPath = `/private/v1/users/${other._id}`;
    const secondAdmin = await t.loginAs('admin');
    expect((await change(userPath, { role: 'developer' }, secondAdmin.token, 1)).status).toBe(200);
    const roleConflict = conflictOf(await change(userPath, { role: 'admin' }, tokens.admin, 1));
    expect(roleConflict.conflicts).toMatchObject([
      { field: 'role', current: 'developer', changedBy: { email: secondAdmin.email } },
    ]);
    expect(userRowSchema.parse(dataOf(await t.get(userPath, tokens.admin))).role).toBe('developer');

    // Cage mesh: B renames, A's stale gender change lands, A's stale rename does not.
    const created = cageMeshSchema.parse(
      dataOf(await t.post('/v1/cage-meshes', { name: 'Cage', gender: 'male' }, tokens.admin)),
    );
    const meshPath = `/v1/cage-meshes/${created.id}`;
    expect((await change(meshPath, { name: 'Theirs' }, tokens.developer, 1)).status).toBe(200);
    expect(
      cageMeshSchema.parse(dataOf(await change(meshPath, { gender: 'female' }, tokens.admin, 1))),
    ).toMatchObject({
      name: 'Theirs',
      gender: 'female',
      version: 3,
    });
    expect(
      conflictOf(await change(meshPath, { name: 'Mine' }, tokens.admin, 1)).conflicts,
    ).toMatchObject([{ field: 'name', current: 'Theirs' }]);

    // An asset's application entry: a position someone else gave the same entry since.
    const applicationId = newId();
    await t.db.query(
      'INSERT INTO applications (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)',
      [applicationId, `App ${applicationId}`, t.clock.current],
    );
    const [first, second] = [await createAsset(), await createAsset()];
    for (const asset of [first, second]) {
      dataOf(await t.post(`/v1/assets/${asset.id}/application`, { applicationId }, tokens.admin));
    }
    const entryPath = (asset: Asset) => `/v1/assets/${asset.id}/application`;
    const moved = applicationAssetSchema.parse(
      dataOf(await change(entryPath(second), { applicationId, position: 1 }, tokens.developer, 1)),
    );
    expect(moved).toMatchObject({ position: 1, version: 2 });
    // A move writes the moved entry only: the first entry, pushed to 2, kept its version 1.
    expect(
      applicationAssetSchema.parse(
        dataOf(await change(entryPath(first), { applicationId, position: 1 }, tokens.admin, 1)),
      ),
    ).toMatchObject({ position: 1, version: 2 });
    // The second entry, moved at version 1 -> 2, was moved again since: moving it based on 1
    // again conflicts.
    const stale = conflictOf(
      await change(entryPath(second), { applicationId, position: 1 }, tokens.admin, 1),
    );
    expect(stale.conflicts).toMatchObject([{ field: 'position', current: 2 }]);
    // Without If-Match the move lands; its ETag is the new version.
    const entry = await t.patch(
      `/v1/application-assets/${moved.id}/position`,
      { position: 1 },
      tokens.admin,
    );
    expect(entry.headers.get('etag')).toBe('"3"');
  });
});

describe('concurrent saves', () => {
  it('parallel saves of different fields based on one version all land', async () => {
    const asset = await createAsset();
    const fields = [
      { name: 'Parallel name' },
      { description: 'Parallel description' },
      { gender: 'female' },
      { type: 'bottom' },
      { isTemplate: true },
    ];
    const responses = await Promise.all(
      fields.map((body, i) =>
        change(`/v1/assets/${asset.id}`, body, i % 2 ? tokens.admin : tokens.developer, 1),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(fields.map(() => 200));
    expect(await readAsset(asset.id)).toMatchObject({
      ...Object.assign({}, ...fields),
      version: 6,
    });
  });

  it('parallel saves of one field based on one version: exactly one lands, the others conflict', async () => {
    const asset = await createAsset();
    const names = Array.from({ length: 6 }, (_, i) => `Name ${i}`);
    const responses = await Promise.all(
      names.map((name) => change(`/v1/assets/${asset.id}`, { name }, tokens.admin, 1)),
    );
    const landed = responses.flatMap((response, i) => (response.status === 200 ? [names[i]] : []));
    expect(landed).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect(conflictOf(response).conflicts).toMatchObject([{ field: 'name', current: landed[0] }]);
    }
    expect(await readAsset(asset.id)).toMatchObject({ name: landed[0], version: 2 });
  });

  it('parallel renames of a tag, a cage mesh and a position based on one version: one each lands', async () => {
    const tag = tagRowSchema.parse(
      dataOf(await t.post('/v1/tags', { name: `P ${newId()}` }, tokens.admin)),
    );
    const mesh = cageMeshSchema.parse(
      dataOf(await t.post('/v1/cage-meshes', { name: 'P', gender: 'male' }, tokens.admin)),
    );
    const applicationId = newId();
    await t.db.query(
      'INSERT INTO applications (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)',
      [applicationId, `App ${applicationId}`, t.clock.current],
    );
    const assets = [await createAsset(), await createAsset(), await createAsset()];
    for (const asset of assets) {
      dataOf(await t.post(`/v1/assets/${asset.id}/application`, { applicationId }, tokens.admin));
    }
    const moved = assets[2]!;
    const cases = [
      {
        path: `/v1/tags/${tag.id}`,
        method: 'PUT',
        field: 'name',
        bodies: [1, 2, 3, 4].map((i) => ({ name: `${tag.name} ${i}` })),
        read: async () =>
          tagRowSchema.parse(dataOf(await t.get(`/v1/tags/${tag.id}`, tokens.admin))).name,
      },
      {
        path: `/v1/cage-meshes/${mesh.id}`,
        method: 'PATCH',
        field: 'name',
        bodies: [1, 2, 3, 4].map((i) => ({ name: `P ${i}` })),
        read: async () =>
          cageMeshSchema.parse(dataOf(await t.get(`/v1/cage-meshes/${mesh.id}`, tokens.admin)))
            .name,
      },
      {
        path: `/v1/assets/${moved.id}/application`,
        method: 'PATCH',
        field: 'position',
        bodies: [1, 2].map((position) => ({ applicationId, position })),
        read: async () => {
          const { rows } = await t.db.query<{ position: number }>(
            `SELECT ${placeSql('application_assets', 'x')} AS position
             FROM application_assets x WHERE x.asset_id = $1`,
            [moved.id],
          );
          return rows[0]!.position;
        },
      },
    ];
    for (const { path, method, field, bodies, read } of cases) {
      const responses = await Promise.all(
        bodies.map((body) => change(path, body, tokens.admin, 1, method)),
      );
      const landed = bodies.filter((_, i) => responses[i]!.status === 200);
      expect(landed, path).toHaveLength(1);
      const value = (landed[0] as Record<string, unknown>)[field];
      for (const response of responses.filter((r) => r.status !== 200)) {
        expect(conflictOf(response).conflicts, path).toMatchObject([{ field, current: value }]);
      }
      expect(await read(), path).toBe(value);
    }
  });

  it('50 random interleavings of saves and deletes lose nothing that was acknowledged', async () => {
    // mulberry32: a small seeded PRNG, so a failing round can be replayed.
    let seed = 20_201_120;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const FIELDS = ['name', 'description'] as const;
    for (let round = 0; round < 50; round += 1) {
      const assets = [await createAsset(), await createAsset()];
      const operations = Array.from({ length: 8 }, (_, i) => {
        const asset = pick(assets);
        if (random() < 0.12) return { kind: 'delete' as const, asset };
        const field = pick(FIELDS);
        const value = `r${round}-${i}`;
        // Based on the version read at the start, or on none (last writer wins).
        const base = random() < 0.7 ? 1 : undefined;
        return { kind: 'save' as const, asset, field, value, base };
      });
      const results = await Promise.all(
        operations.map((operation) =>
          operation.kind === 'delete'
            ? t.request('DELETE', `/v1/assets/${operation.asset.id}`, { token: tokens.admin })
            : change(
                `/v1/assets/${operation.asset.id}`,
                { [operation.field]: operation.value },
                tokens.admin,
                operation.base,
              ),
        ),
      );
      for (const asset of assets) {
        const mine = operations.flatMap((operation, i) =>
          operation.asset === asset ? [{ operation, result: results[i]! }] : [],
        );
        // Every answer is an acknowledgement, a conflict, or a 404 after a delete.
        for (const { result } of mine) expect([200, 404, 409]).toContain(result.status);
        const deleted = mine.some(
          ({ operation, result }) => operation.kind === 'delete' && result.status === 200,
        );
        if (deleted) {
          expect(
            (await t.get(`/v1/assets/${asset.id}`, tokens.admin)).status,
            `round ${round}`,
          ).toBe(404);
          // From the Trash it comes back with every save acknowledged before the delete.
          dataOf(await t.post(`/v1/assets/${asset.id}/restore`, {}, tokens.admin));
        }
        const final = await readAsset(asset.id);
        for (const field of FIELDS) {
          // The acknowledged saves of the field, by the version they produced: the last one is
          // what the asset holds, and no two acknowledged saves share a version.
          const acknowledged = mine
            .filter(
              ({ operation, result }) =>
                operation.kind === 'save' && operation.field === field && result.status === 200,
            )
            .map(({ operation, result }) => ({
              value: operation.kind === 'save' ? operation.value : '',
              version: assetSchema.parse(dataOf(result)).version!,
            }))
            .sort((a, b) => a.version - b.version);
          const last = acknowledged.at(-1);
          expect(final[field], `round ${round} ${field}`).toBe(last ? last.value : asset[field]);
        }
        const versions = mine
          .filter(({ operation, result }) => operation.kind === 'save' && result.status === 200)
          .map(({ result }) => assetSchema.parse(dataOf(result)).version);
        expect(new Set(versions).size, `round ${round}`).toBe(versions.length);
      }
    }
    // 50 rounds of 8 requests and a few reads each: about 10 s on PGlite, more on a busy
    // PostgreSQL.
  }, 120_000);
});
