/**
 * Every call of spec §7 "Cage meshes and tags" for cage meshes: the method, path and body it
 * sends, what it answers, and the service name its failures carry (§8).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as cageMeshes from './requests';
import { ApiError } from '../../../api/errors';
import { configureHttp } from '../../../api/http';
import { configureSession } from '../../../api/session-bridge';
import { jsonResponse, scriptedFetch, signedInSession } from '../../../api/testing';

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

interface Case {
  name: string;
  call: () => Promise<unknown>;
  /** `METHOD path?query` as the server sees it. */
  route: string;
  body?: unknown;
  answer: { data: unknown };
  service: string;
}

const withData = (data: unknown) => ({ data });

const CASES: Case[] = [
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

function serve(route: string, status: number, answer: unknown) {
  const server = scriptedFetch({ [route]: () => jsonResponse(status, answer) });
  configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });
  return server;
}

beforeEach(() => {
  configureSession(signedInSession());
});

afterEach(() => {
  configureSession(null);
});

describe.each(CASES)('$name', ({ call, route, body, answer, service }) => {
  it(`sends ${route} with its body and reads the answer`, async () => {
    const server = serve(route, 200, answer);
    const value = await call();
    expect(server.calls).toHaveLength(1);
    const [sent] = server.calls;
    expect(`${sent?.method} ${sent?.path}`).toBe(route);
    expect(sent?.body).toEqual(body);
    expect(sent?.authorization).toMatch(/^Bearer /);
    expect(value).toEqual(answer.data);
  });

  it(`tags a failure with service '${service}'`, async () => {
    serve(route, 409, { status: 409, code: 'CONFLICT', message: 'Taken' });
    const error: unknown = await call().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'CONFLICT', message: 'Taken', service });
  });
});

describe('a change based on a version', () => {
  it('sends it as If-Match', async () => {
    const server = serve('PATCH v1/cage-meshes/c1', 200, withData(CAGE));
    await cageMeshes.updateCageMesh('c1', { name: 'Cage' }, 3);
    expect(server.calls.map((sent) => sent.ifMatch)).toEqual(['"3"']);
  });
});
