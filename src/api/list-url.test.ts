import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { defineList, fromListSearch, parseListSearch, toListSearch } from './list-url';

const filterSchema = z.object({
  type: z.optional(z.array(z.string())),
  gender: z.optional(z.enum(['male', 'female'])),
});
const options = { sortFields: ['name', 'createdAt'], defaultOrder: { createdAt: 'desc' as const } };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parseListSearch', () => {
  it('reads the filter from JSON text or from the object the router already decoded', () => {
    const state = { filter: { type: ['hair'] }, order: { name: 'desc' }, page: 3 };
    expect(
      parseListSearch(
        { filter: '{"type":["hair"]}', order: '-name', page: '3' },
        filterSchema,
        options,
      ),
    ).toEqual(state);
    expect(
      parseListSearch(
        { filter: { type: ['hair'] }, order: '-name', page: 3 },
        filterSchema,
        options,
      ),
    ).toEqual(state);
  });

  it.each([
    ['malformed JSON', '{"type":'],
    ['a shape the list does not know', '{"gender":"robot"}'],
    ['not an object', '[1,2]'],
  ])('warns and uses no filters for %s', (_name, filter) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(parseListSearch({ filter }, filterSchema, options).filter).toEqual({});
    expect(warn).toHaveBeenCalledWith('Error parsing filters', expect.anything());
  });

  it('falls back to page 1 and the default order for malformed or unknown values', () => {
    for (const page of ['abc', '0', '-2', '1.5', 2.5, null]) {
      expect(parseListSearch({ page }, filterSchema, options).page).toBe(1);
    }
    expect(parseListSearch({ order: '-secret' }, filterSchema, options).order).toEqual({
      createdAt: 'desc',
    });
    expect(parseListSearch({}, filterSchema).order).toEqual({});
  });

  it('reads a page size the lists offer; a malformed or other size is none (the list keeps its own)', () => {
    for (const limit of ['25', 50, '100']) {
      expect(parseListSearch({ limit }, filterSchema).limit).toBe(Number(limit));
    }
    for (const limit of ['abc', '0', '-10', '1000', 12, '25.5', null, '']) {
      expect(parseListSearch({ limit }, filterSchema).limit).toBeUndefined();
    }
    expect(defineList({ ...options }).validateSearch({ limit: '9999' }).limit).toBeUndefined();
  });

  it('drops empty filter values', () => {
    expect(parseListSearch({ filter: { type: [] } }, filterSchema).filter).toEqual({});
  });
});

describe('toListSearch', () => {
  it('writes filter, order and page; no filter drops the param; infinite mode leaves the page out', () => {
    const state = { filter: { type: ['hair'] }, order: { name: 'asc' as const }, page: 2 };
    expect(toListSearch(state, { mode: 'paged' })).toEqual({
      filter: { type: ['hair'] },
      order: 'name',
      page: 2,
    });
    expect(toListSearch(state, { mode: 'infinite' })).toEqual({
      filter: { type: ['hair'] },
      order: 'name',
    });
    expect(toListSearch({ filter: { type: [] }, order: {}, page: 1 }, { mode: 'paged' })).toEqual({
      page: 1,
    });
  });

  it('round-trips through the validateSearch of a list definition', () => {
    const { validateSearch } = defineList({ filterSchema, ...options });
    const search = validateSearch({ filter: '{"gender":"male"}', order: 'name', page: '4' });
    expect(search).toEqual({ filter: { gender: 'male' }, order: 'name', page: 4 });
    expect(validateSearch(search as Record<string, unknown>)).toEqual(search);
    expect(fromListSearch(search)).toEqual({
      filter: { gender: 'male' },
      order: { name: 'asc' },
      page: 4,
    });
  });
});
