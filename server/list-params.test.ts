import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../contract/openapi';
import { dataOf, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: {
    type?: string;
    enum?: string[];
    pattern?: string;
    items?: { enum?: string[]; pattern?: string };
    maximum?: number;
  };
}

/** The list operations of the document: GETs whose `order` names the fields they sort by. */
function lists() {
  const document = openApiDocument('1.0.0');
  return Object.entries(document.paths).flatMap(([path, item]) => {
    const parameters = (
      (item.get as { parameters?: Parameter[] } | undefined)?.parameters ?? []
    ).filter((p) => p.in === 'query');
    const order = parameters.find((p) => p.name === 'order');
    return order?.schema.enum ? [{ path, parameters, orders: order.schema.enum }] : [];
  });
}

/** The message of the 400 the server answers, or its status. */
const refusal = (response: { status: number; body: unknown }) =>
  response.status === 400 ? (response.body as { message: string }).message : response.status;

/** The list after `prefix` in a server message (`... one of a, b, c` -> [a, b, c]). */
const listed = (message: unknown, prefix: RegExp) =>
  String(message)
    .match(new RegExp(`${prefix.source}(.*?)(?: \\(|$)`))?.[1]
    ?.split(', ')
    .filter((name) => name !== 'none')
    .sort() ?? [];

describe('the query parameters each list documents', () => {
  it('are those the server reads: its sort fields, its filters, their allowed values, how many values and which are required', async () => {
    const assetId = (
      dataOf(await t.get('/v1/assets?limit=1', tokens.admin)) as { id: string }[]
    )[0]!.id;
    const wrong: string[] = [];
    const documented = lists();
    expect(documented.length).toBeGreaterThan(20);
    for (const { path: template, parameters, orders } of documented) {
      const path = template.replace('{userId}', tokens.developerId).replace(/\{[^}]+\}/g, assetId);
      const get = async (query: string) => refusal(await t.get(`${path}?${query}`, tokens.admin));
      const say = (what: string, documentedValue: unknown, served: unknown) => {
        if (JSON.stringify(documentedValue) !== JSON.stringify(served)) {
          wrong.push(
            `${template} ${what}: documented ${JSON.stringify(documentedValue)}, served ${JSON.stringify(served)}`,
          );
        }
      };
      say(
        'orders',
        orders.filter((o) => !o.startsWith('-')).sort(),
        listed(await get('order=~'), /Sort by one of /),
      );
      const filters = parameters.filter((p) => !['page', 'limit', 'order'].includes(p.name));
      say(
        'filters',
        filters.map((p) => p.name).sort(),
        listed(await get('zz-unknown=1'), /this list accepts /),
      );
      const required = filters.filter((p) => p.required);
      // The required filters' values, so that the others are read.
      const base = required.map((p) => `${p.name}=x`).join('&');
      say(
        'required',
        required.map((p) => `${p.name}: Required`),
        required.length ? [await get('')] : [],
      );
      for (const filter of filters.filter((p) => !p.required)) {
        const several = filter.schema.type === 'array';
        const item = several ? filter.schema.items : filter.schema;
        const values = item?.enum?.slice().sort();
        const served = listed(await get(`${base}&${filter.name}=~`), /Expected one of /);
        if (item?.pattern) {
          const pattern = new RegExp(item.pattern);
          say(
            `${filter.name} values of its pattern`,
            [],
            served.filter((v) => !pattern.test(v)),
          );
        } else say(`${filter.name} values`, values ?? [], served);
        const two = await get(
          `${base}&${filter.name}=${values?.[0] ?? 'a'}&${filter.name}=${values?.[1] ?? 'b'}`,
        );
        say(`${filter.name} several`, several, two !== `${filter.name}: Give at most one value`);
      }
      const page = parameters.find((p) => p.name === 'page')!.schema.maximum!;
      say(
        'page past its maximum',
        'refused',
        typeof (await get(`${base}&page=${page + 1}`)) === 'string' ? 'refused' : 'read',
      );
    }
    expect(wrong).toEqual([]);
  });
});
