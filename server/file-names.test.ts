/**
 * Stored and downloaded file names carry no bidirectional or other invisible controls: a name
 * like "invoice\u202Efdp.exe" (shown as "invoiceexe.pdf") cannot lie about its extension. And
 * they end with the file's real type, whatever the uploader called it.
 */
import { describe, expect, it } from 'vitest';
import { applicationRowSchema, uploadResultSchema } from '../contract/schemas';
import { newId } from './ids';
import { dataOf, useRoleTokens, useTestApp } from './test-app';
import { readAvatar, readPng } from './test-files';

const t = useTestApp();
const tokens = useRoleTokens(t);
const RLO = '\u202E';

const upload = async (name: string) =>
  uploadResultSchema.parse(
    dataOf(
      await t.request('POST', '/v1/uploads/model', {
        bytes: readAvatar('spawn-effect.glb'),
        token: tokens.developer,
        headers: { 'x-file-name': encodeURIComponent(name) },
      }),
    ),
  );

describe('file names', () => {
  it('an upload name keeps no right-to-left override or other bidirectional control', async () => {
    const stored = await upload(`avatar${RLO}bl\u2066g\u2069\u200E\u200F\u061C.glb`);
    expect(stored.name).toBe('avatarblg.glb');
    const key = stored.url.slice('/files/'.length);
    expect(dataOf(await t.get(`/v1/files/${key}`, tokens.developer))).toMatchObject({
      name: 'avatarblg.glb',
    });
  });

  it('a name stored before is shown and downloaded without its controls', async () => {
    const stored = await upload('plain.glb');
    const key = stored.url.slice('/files/'.length);
    await t.db.query('UPDATE stored_files SET original_name = $2 WHERE key = $1', [
      key,
      `invoice${RLO}blg.exe`,
    ]);
    expect(dataOf(await t.get(`/v1/files/${key}`, tokens.developer))).toMatchObject({
      name: 'invoiceblg.exe.glb',
    });
    const download = await t.request('GET', `${stored.url}?download`);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="invoiceblg.exe.glb"; filename*=UTF-8''invoiceblg.exe.glb`,
    );
  });

  it("a download's name ends with its file's real type: an icon PNG named as a page saves as a PNG", async () => {
    const stored = uploadResultSchema.parse(
      dataOf(
        await t.request('POST', '/v1/uploads/icon', {
          bytes: readPng(),
          token: tokens.admin,
          headers: { 'x-file-name': 'quarterly-report.html' },
        }),
      ),
    );
    expect(stored.name).toBe('quarterly-report.html.png');
    const key = stored.url.slice('/files/'.length);
    const saved = `attachment; filename="quarterly-report.html.png"; filename*=UTF-8''quarterly-report.html.png`;
    const download = await t.request('GET', `${stored.url}?download`);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-disposition')).toBe(saved);
    // A name kept as it was uploaded, before this rule, is served under the same rule.
    await t.db.query('UPDATE stored_files SET original_name = $2 WHERE key = $1', [
      key,
      'quarterly-report.html',
    ]);
    const again = await t.request('GET', `${stored.url}?download`);
    expect(again.headers.get('content-disposition')).toBe(saved);
    expect(dataOf(await t.get(`/v1/files/${key}`, tokens.admin))).toMatchObject({
      name: 'quarterly-report.html.png',
    });
    // A name that already says what the file is stays as it is.
    const named = await upload('Avatar.GLB');
    expect(named.name).toBe('Avatar.GLB');
  });

  it("an application's export downloads under a name without controls", async () => {
    const name = `Shop ${newId()} ${RLO}nosj.exe`;
    const application = applicationRowSchema.parse(
      dataOf(await t.post('/v1/applications', { name }, tokens.admin)),
    );
    const response = await t.request('GET', `/v1/assets/export/${application.id}`, {
      token: tokens.admin,
    });
    expect(response.status).toBe(200);
    const disposition = response.headers.get('content-disposition') ?? '';
    expect(disposition).toContain('nosj.exe-assets.json');
    expect(disposition).not.toContain('%E2%80%AE');
  });
});
