/**
 * If-Match on every route that changes a versioned record (docs/api.md "Versions and conflicts"):
 * a stale or unknown version is never applied as if it were absent (RFC 9110 §13.1.1).
 */
import { describe, expect, it } from 'vitest';
import {
  assetApplicationSchema,
  assetSchema,
  cageMeshSchema,
  editConflictErrorSchema,
  tagRowSchema,
  type Asset,
} from '../contract/schemas';
import { newId } from './ids';
import { dataOf, expectError, useRoleTokens, useTestApp, type JsonResponse } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

/** `method path` with `body`, as the admin, based on `version` when given. */
const send = (method: string, path: string, body?: unknown, version?: number | string) =>
  t.request(method, path, {
    body,
    token: tokens.admin,
    headers:
      version === undefined
        ? {}
        : { 'if-match': typeof version === 'number' ? `"${version}"` : version },
  });

async function createAsset(): Promise<Asset> {
  const body = { name: `Jacket ${newId()}`, type: 'top', gender: 'unisex' };
  return assetSchema.parse(dataOf(await t.post('/v1/assets', body, tokens.admin)));
}

const readAsset = async (id: string) =>
  assetSchema.parse(dataOf(await t.get(`/v1/assets/${id}`, tokens.admin)));

async function createTag() {
  const body = { name: `Tag ${newId()}` };
  return tagRowSchema.parse(dataOf(await t.post('/v1/tags', body, tokens.admin)));
}

function conflictFields(response: JsonResponse) {
  expectError(response, 409, 'EDIT_CONFLICT');
  return editConflictErrorSchema.parse(response.body).conflicts.map((c) => c.field);
}

describe('lock and unlock with If-Match', () => {
  it('a stale lock state is a 409, an unknown version a 412, and neither changes the asset', async () => {
    const asset = await createAsset();
    // B locks (version 2); A, who read version 1, unlocks.
    dataOf(await send('PUT', `/v1/assets/${asset.id}/lock`, {}, 1));
    expect(conflictFields(await send('PUT', `/v1/assets/${asset.id}/unlock`, {}, 1))).toEqual([
      'locked',
    ]);
    expectError(await send('PUT', `/v1/assets/${asset.id}/unlock`, {}, 9), 412, 'VERSION_UNKNOWN');
    expect(await readAsset(asset.id)).toMatchObject({ locked: true, version: 2 });

    const unlocked = await send('PUT', `/v1/assets/${asset.id}/unlock`, {}, 2);
    expect(assetSchema.parse(dataOf(unlocked))).toMatchObject({ locked: false, version: 3 });
    expect(unlocked.headers.get('etag')).toBe('"3"');
  });

  it('a stale version whose lock state nobody changed goes ahead (other fields changed)', async () => {
    const asset = await createAsset();
    dataOf(await send('PATCH', `/v1/assets/${asset.id}`, { name: 'Renamed' }, 1));
    dataOf(await send('PUT', `/v1/assets/${asset.id}/lock`, {}, 1));
    expect(await readAsset(asset.id)).toMatchObject({ name: 'Renamed', locked: true });
  });
});

describe('tagging with If-Match (the asset version)', () => {
  it('set-tag and remove-tag based on a version whose tags changed since are a 409', async () => {
    const asset = await createAsset();
    const [theirs, mine] = [await createTag(), await createTag()];
    dataOf(await send('POST', '/v1/tags/set-tag', { assetId: asset.id, tagId: theirs.id }, 1));
    const body = { assetId: asset.id, tagId: mine.id };
    expect(conflictFields(await send('POST', '/v1/tags/set-tag', body, 1))).toEqual(['tagIds']);
    expect(
      conflictFields(
        await send('POST', '/v1/tags/remove-tag', { assetId: asset.id, tagId: theirs.id }, 1),
      ),
    ).toEqual(['tagIds']);
    expectError(await send('POST', '/v1/tags/set-tag', body, 5), 412, 'VERSION_UNKNOWN');
    expect((await readAsset(asset.id)).tags.map((tag) => tag.id)).toEqual([theirs.id]);

    const tagged = await send('POST', '/v1/tags/set-tag', body, 2);
    expect(assetSchema.parse(dataOf(tagged)).version).toBe(3);
    expect(tagged.headers.get('etag')).toBe('"3"');
  });
});

describe('deletes with If-Match', () => {
  it('a tag renamed since the version named is not deleted (412), the current one is', async () => {
    const tag = await createTag();
    dataOf(await send('PUT', `/v1/tags/${tag.id}`, { name: `Renamed ${tag.id}` }, 1));
    expectError(await send('DELETE', `/v1/tags/${tag.id}`, undefined, 1), 412, 'VERSION_CHANGED');
    expectError(await send('DELETE', `/v1/tags/${tag.id}`, undefined, 3), 412, 'VERSION_UNKNOWN');
    expect((await t.get(`/v1/tags/${tag.id}`, tokens.admin)).status).toBe(200);
    dataOf(await send('DELETE', `/v1/tags/${tag.id}`, undefined, 2));
    expectError(await t.get(`/v1/tags/${tag.id}`, tokens.admin), 404);
  });

  it('an asset, a cage mesh and an application changed since are not deleted', async () => {
    const asset = await createAsset();
    dataOf(await send('PATCH', `/v1/assets/${asset.id}`, { description: 'Changed' }, 1));
    const mesh = cageMeshSchema.parse(
      dataOf(await t.post('/v1/cage-meshes', { name: 'Cage', gender: 'male' }, tokens.admin)),
    );
    dataOf(await send('PATCH', `/v1/cage-meshes/${mesh.id}`, { name: 'Renamed' }, 1));
    const application = dataOf(
      await t.post('/v1/applications', { name: `App ${newId()}` }, tokens.admin),
    ) as { id: string };
    dataOf(
      await send('PATCH', `/v1/applications/${application.id}`, { name: `New ${newId()}` }, 1),
    );
    for (const path of [
      `/v1/assets/${asset.id}`,
      `/v1/cage-meshes/${mesh.id}`,
      `/v1/applications/${application.id}`,
    ]) {
      expectError(await send('DELETE', path, undefined, 1), 412, 'VERSION_CHANGED');
      expect((await t.get(path, tokens.admin)).status).toBe(200);
      dataOf(await send('DELETE', path, undefined, 2));
      expectError(await t.get(path, tokens.admin), 404);
    }
  });

  it("an asset's application entry moved since is not removed", async () => {
    const application = dataOf(
      await t.post('/v1/applications', { name: `App ${newId()}` }, tokens.admin),
    ) as { id: string };
    const applicationId = application.id;
    const [first, second] = [await createAsset(), await createAsset()];
    for (const asset of [first, second]) {
      dataOf(await t.post(`/v1/assets/${asset.id}/application`, { applicationId }, tokens.admin));
    }
    // Someone moves the first entry down: it is at version 2.
    dataOf(
      await send('PATCH', `/v1/assets/${first.id}/application`, { applicationId, position: 2 }),
    );
    const path = `/v1/assets/${first.id}/application`;
    expectError(await send('DELETE', path, { applicationId }, 1), 412, 'VERSION_CHANGED');
    const entry = assetApplicationSchema.parse(
      dataOf(await send('DELETE', path, { applicationId }, 2)),
    );
    expect(entry.version).toBe(2);
  });
});

describe('other changes of one record with If-Match', () => {
  it('a move based on a version whose position changed since is a 409', async () => {
    const asset = await createAsset();
    const before = await readAsset(asset.id);
    const path = `/v1/assets/${asset.id}/position`;
    // Someone moves it to the top; a move based on the version read before is stale.
    const moved = assetSchema.parse(dataOf(await send('PATCH', path, { position: 1 })));
    expect(moved.position).not.toBe(before.position);
    const stale = await send('PATCH', path, { position: before.position }, before.version);
    expect(conflictFields(stale)).toEqual(['position']);
    expectError(await send('PATCH', path, { position: 2 }, 9999), 412, 'VERSION_UNKNOWN');
    expect(await readAsset(asset.id)).toMatchObject({ position: 1, version: moved.version });
  });

  it('disabling a user checks the version named', async () => {
    const other = await t.loginAs('user');
    const path = `/private/v1/users/${other._id}/disable`;
    expectError(await send('POST', path, undefined, 7), 412, 'VERSION_UNKNOWN');
    const user = dataOf(await t.get(`/private/v1/users/${other._id}`, tokens.admin)) as {
      disabledAt: string | null;
    };
    expect(user.disabledAt).toBeNull();
    dataOf(await send('POST', path, undefined, 1));
  });
});

describe('restoring and deleting for ever one record of the Trash with If-Match', () => {
  it('a version other than the one it was trashed at changes nothing (412)', async () => {
    const asset = await createAsset();
    dataOf(await send('PATCH', `/v1/assets/${asset.id}`, { description: 'Changed' }, 1));
    dataOf(await send('DELETE', `/v1/assets/${asset.id}`));
    const tag = await createTag();
    dataOf(await send('DELETE', `/v1/tags/${tag.id}`));
    const inTrash = async () =>
      (dataOf(await t.get('/v1/trash?limit=100', tokens.admin)) as { id: string }[]).map(
        (row) => row.id,
      );
    for (const [restore, purge] of [
      [`/v1/assets/${asset.id}/restore`, `/v1/trash/asset/${asset.id}`],
      [`/v1/tags/${tag.id}/restore`, `/v1/trash/tag/${tag.id}`],
    ] as const) {
      expectError(await send('POST', restore, undefined, 9), 412, 'VERSION_UNKNOWN');
      expectError(await send('DELETE', purge, undefined, 9), 412, 'VERSION_UNKNOWN');
    }
    expectError(await send('POST', `/v1/assets/${asset.id}/restore`, undefined, 1), 412);
    expectError(await send('DELETE', `/v1/trash/asset/${asset.id}`, undefined, 1), 412);
    expect(await inTrash()).toEqual(expect.arrayContaining([asset.id, tag.id]));
    // The version it had when it was trashed goes ahead.
    dataOf(await send('POST', `/v1/assets/${asset.id}/restore`, undefined, 2));
    expect(await readAsset(asset.id)).toMatchObject({ description: 'Changed' });
    dataOf(await send('DELETE', `/v1/trash/tag/${tag.id}`, undefined, 1));
    expect(await inTrash()).not.toContain(tag.id);
  });
});

describe('bulk changes with If-Match', () => {
  it('answer 412 and change nothing: several records have no one version to compare', async () => {
    const asset = await createAsset();
    const tag = await createTag();
    const ids = [asset.id];
    for (const [path, body] of [
      ['/v1/assets/bulk-lock', { ids }],
      ['/v1/assets/bulk-unlock', { ids }],
      ['/v1/assets/bulk-set-tag', { ids, tagId: tag.id }],
      ['/v1/assets/bulk-remove-tag', { ids, tagId: tag.id }],
      ['/v1/assets/bulk-delete', { ids }],
      ['/v1/cage-meshes/bulk-delete', { ids: [newId()] }],
      ['/v1/assets/bulk-restore', { ids }],
      ['/v1/trash/bulk-restore', { items: [{ kind: 'asset', id: asset.id }] }],
      ['/v1/trash/bulk-delete', { items: [{ kind: 'asset', id: asset.id }] }],
    ] as const) {
      expectError(await send('POST', path, body, 1), 412, 'PRECONDITION_FAILED');
    }
    expect(await readAsset(asset.id)).toMatchObject({ locked: false, version: 1, tags: [] });
    // `*` is "whatever is there": the change goes ahead.
    dataOf(await send('POST', '/v1/assets/bulk-lock', { ids }, '*'));
    expect((await readAsset(asset.id)).locked).toBe(true);
  });
});
