import { describe, expect, it } from 'vitest';
import {
  canonical,
  clampPage,
  cleanFilter,
  decodeOrder,
  encodeOrder,
  filterTexts,
  isFilterActive,
  moveRow,
  sortOf,
  targetPosition,
  toggleSort,
} from './list-query';

describe('list query rules', () => {
  it('sorts an unsorted field descending and flips the sorted one (spec §4)', () => {
    expect(toggleSort({}, 'name')).toEqual({ name: 'desc' });
    expect(toggleSort({ name: 'desc' }, 'name')).toEqual({ name: 'asc' });
    expect(toggleSort({ name: 'asc' }, 'name')).toEqual({ name: 'desc' });
    expect(toggleSort({ name: 'asc' }, 'type')).toEqual({ type: 'desc' });
  });

  it('encodes the order as field or -field and back', () => {
    expect(encodeOrder({ name: 'desc' })).toBe('-name');
    expect(encodeOrder({ name: 'asc' })).toBe('name');
    expect(encodeOrder({})).toBeUndefined();
    expect(decodeOrder('-name')).toEqual({ name: 'desc' });
    expect(decodeOrder('name')).toEqual({ name: 'asc' });
    expect(decodeOrder('-')).toEqual({});
  });

  it('reads the sort from the field that has a direction, skipping a cleared one', () => {
    expect(sortOf({ name: undefined, type: 'asc' })).toEqual({ field: 'type', direction: 'asc' });
    expect(encodeOrder({ name: undefined, type: 'desc' })).toBe('-type');
    expect(sortOf({ name: undefined })).toBeNull();
  });

  it('keeps the page between 1 and the known total', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(7, 5)).toBe(5);
    expect(clampPage(7, 0)).toBe(7);
    expect(clampPage(Number.NaN, 3)).toBe(1);
    expect(clampPage(2.7, 3)).toBe(2);
  });

  it('drops empty filter values and is active when any value is non-empty (spec §5)', () => {
    const filter = { a: '', b: [], c: null, d: false, e: 0, f: 'x', g: ['y'] };
    expect(cleanFilter(filter)).toEqual({ f: 'x', g: ['y'] });
    expect(isFilterActive(filter)).toBe(true);
    expect(isFilterActive({ a: '', b: [] })).toBe(false);
  });

  it('moves a row, clamping the target into the list', () => {
    expect(moveRow(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveRow(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveRow(['a', 'b', 'c'], 0, 99)).toEqual(['b', 'c', 'a']);
    expect(moveRow(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });

  it('leaves the rows as they are when the row to move is not in the list', () => {
    expect(moveRow(['a', 'b'], 2, 0)).toEqual(['a', 'b']);
    expect(moveRow(['a', 'b', 'c'], -1, 0)).toEqual(['a', 'b', 'c']);
  });

  it('leaves the rows as they are for a move onto its own place', () => {
    expect(moveRow(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'b', 'c']);
    expect(moveRow(['a', 'b', 'c'], 2, 2)).toEqual(['a', 'b', 'c']);
  });

  it('sends a menu target above the total or below 0 to last place', () => {
    expect(targetPosition(999, 23)).toBe(23);
    expect(targetPosition(-1, 23)).toBe(23);
    expect(targetPosition(4, 23)).toBe(4);
    expect(targetPosition(0, 23)).toBe(1);
  });

  it('writes equal filters as equal text whatever their key order, arrays kept in order', () => {
    expect(canonical({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonical({ a: { c: null, d: [2, 1] }, b: 1 })).toBe(
      canonical({ b: 1, a: { d: [2, 1], c: null } }),
    );
    expect(canonical([{ y: 1, x: 2 }, 'z'])).toBe('[{"x":2,"y":1},"z"]');
    expect(canonical({ status: ['b', 'a'] })).not.toBe(canonical({ status: ['a', 'b'] }));
  });

  it("reads a filter's chosen values as none, one or several texts", () => {
    expect(filterTexts(undefined)).toEqual([]);
    expect(filterTexts(null)).toEqual([]);
    expect(filterTexts('')).toEqual([]);
    expect(filterTexts('glb')).toEqual(['glb']);
    expect(filterTexts(0)).toEqual(['0']);
    expect(filterTexts(true)).toEqual(['true']);
    expect(filterTexts(['a', 2])).toEqual(['a', '2']);
    expect(filterTexts([])).toEqual([]);
  });
});
