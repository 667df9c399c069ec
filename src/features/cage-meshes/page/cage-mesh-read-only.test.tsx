import { screen } from '@testing-library/react';
import { Suspense } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../api/query';
import { jsonResponse, serveApi } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { loadPermissions } from '../../../machines/permissions.view';
import { renderScreen } from '../../../machines/testing/render-screen.view';
import { CageMeshPage } from './cage-mesh-page';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => queryClient.clear());

const mesh = {
  id: 'm1',
  name: 'Cage m1',
  gender: 'female',
  bodyType: null,
  modelUrl: '/files/cage-key',
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  version: 1,
};

describe('a cage mesh read by a role that may not change it (a user)', () => {
  it('is text under a notice saying why, not a greyed-out form', async () => {
    serveApi({ 'GET v1/cage-meshes/m1': () => jsonResponse(200, { data: mesh }) });
    renderScreen(
      () => (
        <Suspense fallback="Loading">
          <CageMeshPage cageMeshId="m1" />
        </Suspense>
      ),
      {
        rules: [
          ['read', 'Asset'],
          ['read', 'CageMesh'],
        ],
      },
    );
    expect(await screen.findByText(/^Read only: your role may look at cage meshes/)).toBeTruthy();
    expect(screen.getByText('Cage m1', { selector: 'dd' })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(
      '/files/cage-key?download',
    );
  });
});
