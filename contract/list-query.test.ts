import { describe, expect, it } from 'vitest';
import {
  clampPage,
  cleanFilter,
  decodeOrder,
  encodeOrder,
  isFilterActive,
  moveRow,
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

  it('sends a menu target above the total or below 0 to last place', () => {
    expect(targetPosition(999, 23)).toBe(23);
    expect(targetPosition(-1, 23)).toBe(23);
    expect(targetPosition(4, 23)).toBe(4);
    expect(targetPosition(0, 23)).toBe(1);
  });
});
