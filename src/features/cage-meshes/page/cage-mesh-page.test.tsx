import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, useParams } from '@tanstack/react-router';
import { Suspense } from 'react';
import { z } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { defineList } from '../../../api/list-url';
import { jsonResponse, serveRequests } from '../../../api/testing';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';
import { GENDERS } from '../../../../contract/assets';
import { CageMeshesList } from '../list/cage-meshes-list';
import { CageMeshPage } from './cage-mesh-page';

setUpScreenTests();

// As the cage meshes route declares it.
const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    gender: z.optional(z.enum(GENDERS)),
  }),
  sortFields: ['name', 'createdAt', 'updatedAt'],
  defaultOrder: { updatedAt: 'desc' },
});

const mesh = (id: string, gender: 'male' | 'female') => ({
  id,
  name: `Cage ${id}`,
  gender,
  bodyType: null,
  modelUrl: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  version: 1,
});

/** Cage meshes of both genders; a bulk delete takes them out. */
function serveCageMeshes() {
  let rows = [mesh('m1', 'female'), mesh('m2', 'female'), mesh('m3', 'male')];
  serveRequests(async (url, request) => {
    await Promise.resolve();
    if (request.method === 'POST' && url.pathname.endsWith('/bulk-delete')) {
      const { ids } = (await request.json()) as { ids: string[] };
      rows = rows.filter((row) => !ids.includes(row.id));
      const items = ids.map((id) => ({ kind: 'cage-mesh', id }));
      return jsonResponse(200, { data: { items } });
    }
    const one = /\/cage-meshes\/(\w+)$/.exec(url.pathname);
    if (one) return jsonResponse(200, { data: rows.find((row) => row.id === one[1]) });
    const gender = url.searchParams.get('gender');
    const matches = rows.filter((row) => !gender || row.gender === gender);
    return jsonResponse(200, {
      data: matches,
      pagination: {
        page: 1,
        limit: 25,
        totalDocs: matches.length,
        totalPages: 1,
        hasNextPage: false,
      },
    });
  });
}

/** A cage mesh's page, as its route shows it. */
function CageMeshRoute() {
  const id = useParams({ strict: false }).cageMeshId ?? '';
  return (
    <Suspense fallback="Loading">
      <CageMeshPage cageMeshId={id} />
    </Suspense>
  );
}

describe('deleting a cage mesh', { timeout: 20_000 }, () => {
  it('returns to the list as the user left it: the female meshes, not the male ones', async () => {
    serveCageMeshes();
    const actor = userEvent.setup();
    const router = renderScreen(() => <Outlet />, {
      paths: {
        '/cage-meshes': () => <CageMeshesList list={list} />,
        '/cage-meshes/$cageMeshId': () => <CageMeshRoute />,
      },
      address: `/cage-meshes?filter=${encodeURIComponent('{"gender":"female"}')}&order=name`,
      validateSearch: list.validateSearch,
      toasts: true,
    });
    // Clicked once the table measured its rows' content and became resizable (its table
    // replaces the first one).
    await screen.findAllByRole('slider', { name: /^Resize / });
    await actor.click(await screen.findByRole('link', { name: 'Cage m1' }));
    await actor.click(await screen.findByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/cage-meshes'));
    expect(router.state.location.search).toMatchObject({
      filter: { gender: 'female' },
      order: 'name',
    });
    expect(await screen.findByRole('link', { name: 'Cage m2' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Cage m3' })).toBeNull();
  });
});
