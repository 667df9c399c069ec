/**
 * What the load bench's clients do: the mix of admin work by share of the clients, the requests
 * each kind repeats, and the admin's sessions and the targets (assets, tags) they share.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type autocannon from 'autocannon';

const ADMIN = { email: 'admin@avatar.studio', password: 'avatar-studio-admin' };
const MODEL = readFileSync(
  resolve('..', 'shared', 'fixtures', 'avatars', 'female-animation-catwalk.glb'),
);
/** Signed-in sessions the clients share (as admins in several tabs and browsers). */
export const SESSIONS = 8;

/** Shares of the clients, by kind of work. */
export const MIX = {
  'list assets': 0.35,
  'list others': 0.12,
  search: 0.15,
  'open asset': 0.15,
  save: 0.08,
  'tag change': 0.05,
  upload: 0.02,
} as const;
export type Work = keyof typeof MIX;

export interface Data {
  tokens: string[];
  assetIds: string[];
  tagIds: string[];
  userId: string;
}

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
let turn = 0;
export const headersFor = (data: Data, more: Record<string, string> = {}) => ({
  authorization: `Bearer ${data.tokens[turn++ % data.tokens.length]!}`,
  ...more,
});

export type Req = autocannon.Request & { kind: string };
/** What a client keeps between the requests of one round (autocannon's context). */
export type Context = Record<string, string | undefined>;

/** The requests one client of `work` repeats; setupRequest picks each one's target. */
export function requestsOf(work: Work, data: Data): Req[] {
  const get = (kind: string, path: () => string): Req => ({
    kind,
    method: 'GET',
    setupRequest: (req) => ({ ...req, path: path(), headers: headersFor(data) }),
  });
  const json = { 'content-type': 'application/json' };
  switch (work) {
    case 'list assets':
      return [
        get('list assets', () => {
          const filter = pick([
            '',
            '&type=hair',
            '&gender=female',
            `&tagId=${pick(data.tagIds)}`,
            '&locked=true',
          ]);
          const order = pick(['name', '-name', 'createdAt', '-createdAt', '-updatedAt', 'type']);
          const page = 1 + Math.floor(Math.random() * Math.random() * 40);
          return `/v1/assets?limit=25&order=${order}&page=${page}${filter}`;
        }),
      ];
    case 'list others':
      return [
        get('list others', () =>
          pick([
            '/v1/tags?limit=25&order=name',
            '/private/v1/users?limit=25&order=-createdAt',
            '/private/v1/users?limit=25&role=developer',
            `/v1/activity?limit=25&actorId=${data.userId}`,
            '/v1/activity?limit=25&kind=tag',
            '/v1/trash?limit=25',
            '/v1/morphed-asset-queue?limit=25&order=-updatedAt',
            '/v1/assets/countByType',
          ]),
        ),
      ];
    case 'search':
      return [
        get('search', () => {
          const words = ['hoodie', 'boots', 'hair', 'jacket', 'slim', '1234', 'scale 99'];
          const where = pick(['/v1/assets', '/v1/assets', '/private/v1/users', '/v1/tags']);
          return `${where}?limit=25&search=${encodeURIComponent(pick(words))}`;
        }),
      ];
    case 'open asset':
      return [get('open asset', () => `/v1/assets/${pick(data.assetIds)}`)];
    case 'save': {
      // Each save reads the asset, then changes its name against the version it read.
      let next = Math.floor(Math.random() * data.assetIds.length);
      return [
        {
          kind: 'save: GET',
          method: 'GET',
          setupRequest: (req, context) => {
            const id = data.assetIds[next++ % data.assetIds.length]!;
            (context as Context).id = id;
            return { ...req, path: `/v1/assets/${id}`, headers: headersFor(data) };
          },
          onResponse: (status, _body, context, headers) => {
            (context as Context).etag = status === 200 ? headers?.etag : undefined;
          },
        },
        {
          kind: 'save: PATCH If-Match',
          method: 'PATCH',
          setupRequest: (req, context) => {
            const { id, etag } = context as Context;
            // A read that failed leaves nothing to save against: the client starts over (a
            // falsy request is autocannon's way to say so, which its types do not allow for).
            if (etag === undefined) return null as unknown as autocannon.Request;
            return {
              ...req,
              path: `/v1/assets/${id}`,
              headers: headersFor(data, { ...json, 'if-match': etag }),
              body: JSON.stringify({ name: `Load ${Date.now().toString(36)}` }),
            };
          },
        },
      ];
    }
    case 'tag change': {
      const change = (kind: string, path: string): Req => ({
        kind,
        method: 'POST',
        setupRequest: (req, context) => {
          const ctx = context as Context;
          ctx.assetId ??= pick(data.assetIds);
          ctx.tagId ??= pick(data.tagIds);
          const body = { assetId: ctx.assetId, tagId: ctx.tagId };
          return { ...req, path, headers: headersFor(data, json), body: JSON.stringify(body) };
        },
      });
      return [change('tag: set', '/v1/tags/set-tag'), change('tag: remove', '/v1/tags/remove-tag')];
    }
    case 'upload':
      return [
        {
          kind: 'upload model',
          method: 'POST',
          setupRequest: (req) => ({
            ...req,
            path: '/v1/uploads/model',
            headers: headersFor(data, { 'x-file-name': 'load.glb' }),
            body: MODEL,
          }),
        },
      ];
  }
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

export async function prepare(url: string): Promise<Data> {
  const tokens: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const auth = await json<{ token: string }>(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    tokens.push(auth.token);
  }
  const authorization = { authorization: `Bearer ${tokens[0]!}` };
  const me = await json<{ id: string }>(`${url}/v1/users/me`, { headers: authorization });
  const assetIds: string[] = [];
  // Unlocked assets from several places in the order, so saves and tag changes are allowed.
  for (const [order, page] of [
    ['name', 1],
    ['name', 50],
    ['-createdAt', 1],
    ['-createdAt', 20],
    ['type', 30],
  ] as const) {
    const page100 = await json<{ id: string }[]>(
      `${url}/v1/assets?limit=100&locked=false&order=${order}&page=${page}`,
      { headers: authorization },
    );
    assetIds.push(...page100.map((a) => a.id));
  }
  const tags = await json<{ id: string }[]>(`${url}/v1/tags?limit=100&order=name`, {
    headers: authorization,
  });
  return { tokens, assetIds, tagIds: tags.map((t) => t.id), userId: me.id };
}
