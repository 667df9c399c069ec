/**
 * Every call of spec §7 "Cage meshes and tags" for cage meshes: the method, path and body it
 * sends, what it answers, and the service name its failures carry (§8).
 */
import { describe, expect, it } from 'vitest';
import * as cageMeshes from './requests';
import { serveApi, describeCalls, type CallCase } from '../../../api/testing';

const NOW = '2026-01-01T00:00:00.000Z';
const CAGE = {
  id: 'c1',
  name: 'Cage',
  gender: 'male',
  bodyType: null,
  modelUrl: null,
  createdAt: NOW,
  updatedAt: NOW,
};

const withData = (data: unknown) => ({ data });

const CASES: CallCase[] = [
  {
    name: 'getCageMesh',
    call: () => cageMeshes.getCageMesh('c 1'),
    route: 'GET v1/cage-meshes/c%201',
    answer: withData(CAGE),
    service: 'cageMeshes',
  },
  {
    name: 'createCageMesh',
    call: () => cageMeshes.createCageMesh({ name: 'Cage', gender: 'male' }),
    route: 'POST v1/cage-meshes',
    body: { name: 'Cage', gender: 'male' },
    answer: withData(CAGE),
    service: 'cageMeshes',
  },
  {
    name: 'createCageMesh (private)',
    call: () => cageMeshes.createCageMesh({ name: 'Cage', gender: 'male' }, { scope: 'private' }),
    route: 'POST private/v1/cage-meshes',
    body: { name: 'Cage', gender: 'male' },
    answer: withData(CAGE),
    service: 'privateCageMeshes',
  },
  {
    name: 'updateCageMesh',
    call: () => cageMeshes.updateCageMesh('c1', { bodyType: 'slim', modelUrl: null }),
    route: 'PATCH v1/cage-meshes/c1',
    body: { bodyType: 'slim', modelUrl: null },
    answer: withData(CAGE),
    service: 'cageMeshes',
  },
];

describeCalls(CASES);

describe('a change based on a version', () => {
  it('sends it as If-Match', async () => {
    const server = serveApi({ 'PATCH v1/cage-meshes/c1': [200, withData(CAGE)] });
    await cageMeshes.updateCageMesh('c1', { name: 'Cage' }, 3);
    expect(server.calls.map((sent) => sent.ifMatch)).toEqual(['"3"']);
  });
});
