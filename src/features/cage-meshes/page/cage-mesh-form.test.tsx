import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CageMesh } from '../../../../contract/schemas';
import { queryClient } from '../../../api/query';
import { jsonResponse, serveApi } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { loadPermissions } from '../../../machines/permissions.view';
import { renderScreen } from '../../../machines/testing/render-screen.view';
import { cageMeshQuery } from '../api/requests';
import { CageMeshPage } from './cage-mesh-page';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => queryClient.clear());

const mesh: CageMesh = {
  id: 'm1',
  name: 'Cage m1',
  gender: 'female',
  bodyType: 'slim',
  modelUrl: '/files/cage-key',
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  version: 3,
};

function editMesh() {
  const api = serveApi({
    'GET v1/cage-meshes/m1': () => jsonResponse(200, { data: mesh }),
    'PATCH v1/cage-meshes/m1': (call) =>
      jsonResponse(200, { data: { ...mesh, ...(call.body as object), version: 4 } }),
  });
  renderScreen(() => (
    <Suspense fallback="Loading">
      <CageMeshPage cageMeshId="m1" />
    </Suspense>
  ));
  return { api, user: userEvent.setup() };
}

const patches = (api: ReturnType<typeof serveApi>) =>
  api.calls.filter((call) => call.method === 'PATCH');

describe('the cage mesh form', { timeout: 60_000 }, () => {
  it('names the changed fields, saves only them on the version they started from, then is clean', async () => {
    const { api, user } = editMesh();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(screen.queryByText(/unsaved change/)).toBeNull();

    await user.clear(name);
    await user.type(name, 'Cage 2');
    expect(screen.getByText('1 unsaved change: Name')).toBeTruthy();
    // Typing the stored value back leaves nothing to save.
    await user.clear(name);
    await user.type(name, 'Cage m1');
    expect(screen.queryByText(/unsaved change/)).toBeNull();

    await user.clear(name);
    await user.type(name, 'Cage 2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches(api)).toHaveLength(1));
    expect(patches(api)[0]).toMatchObject({ body: { name: 'Cage 2' }, ifMatch: '"3"' });
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(screen.queryByText(/unsaved change/)).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Cage 2');
  });

  it('refuses a save with an empty name: says so at the field, focuses it, sends nothing', async () => {
    const { api, user } = editMesh();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please fix the highlighted fields.')).toBeTruthy();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(name).toHaveFocus());
    expect(patches(api)).toHaveLength(0);
  });

  it('discards the edits for the stored values', async () => {
    const { user } = editMesh();
    const bodyType = await screen.findByRole('textbox', { name: 'Body type' });
    await user.type(bodyType, ' tall');
    expect(screen.getByText('1 unsaved change: Body type')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(bodyType).toHaveValue('slim');
    expect(screen.queryByText(/unsaved change/)).toBeNull();
  });

  it('follows the stored record until the user edits; then keeps the edits and says who changed what', async () => {
    const { user } = editMesh();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    const stored = (changes: object) =>
      act(() => queryClient.setQueryData(cageMeshQuery('m1').queryKey, { ...mesh, ...changes }));
    await stored({ name: 'Cage by Ada', version: 4 });
    await waitFor(() => expect(name).toHaveValue('Cage by Ada'));
    expect(screen.queryByText(/unsaved change/)).toBeNull();

    const bodyType = screen.getByRole('textbox', { name: 'Body type' });
    await user.type(bodyType, ' tall');
    await stored({ name: 'Cage by Grace', version: 5 });
    const notice = await screen.findByText(/while you were editing/);
    expect(notice.textContent).toMatch(/^Changed by someone\s+while you were editing: Name\./);
    expect(bodyType).toHaveValue('slim tall');
    expect(name).toHaveValue('Cage by Ada');
  });
});
