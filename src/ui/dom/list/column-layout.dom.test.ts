import { act, renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ColumnLayoutUser,
  repairColumnLayout,
  useColumnLayout,
  type ColumnLayout,
} from './column-layout';
import { columnLayoutSchema } from '../../../../contract/saved-views';

const fields = ['name', 'type', 'createdAt', 'position'];
const as =
  (user: string) =>
  ({ children }: { children: ReactNode }) =>
    createElement(ColumnLayoutUser, { value: user }, children);

afterEach(() => localStorage.clear());

describe('repairColumnLayout', () => {
  it('drops unknown columns, keeps the name first and shown, and places missing ones', () => {
    const stored: ColumnLayout = {
      order: ['position', 'gone', 'name', 'type', 'position'],
      hidden: ['name', 'gone', 'type'],
      widths: { type: 10, gone: 300, position: 5000, createdAt: 180.4 },
    };
    expect(repairColumnLayout(stored, fields)).toEqual({
      order: ['name', 'position', 'type', 'createdAt'],
      hidden: ['type'],
      widths: { type: 64, position: 1200, createdAt: 180 },
    });
  });

  it('gives the defaults for no layout', () => {
    expect(repairColumnLayout(undefined, fields)).toEqual({
      order: fields,
      hidden: [],
      widths: {},
    });
  });
});

describe('useColumnLayout', () => {
  it('keeps each user their own layout of each list, and sets back to the defaults', () => {
    const layout: ColumnLayout = { order: ['name', 'type'], hidden: ['type'], widths: {} };
    const mine = renderHook(() => useColumnLayout('assets'), { wrapper: as('u1') });
    const also = renderHook(() => useColumnLayout('assets'), { wrapper: as('u1') });
    const theirs = renderHook(() => useColumnLayout('assets'), { wrapper: as('u2') });
    const other = renderHook(() => useColumnLayout('users'), { wrapper: as('u1') });
    expect(mine.result.current[0]).toBeUndefined();
    act(() => mine.result.current[1](layout));
    expect(mine.result.current[0]).toEqual(layout);
    expect(also.result.current[0]).toEqual(layout);
    expect(theirs.result.current[0]).toBeUndefined();
    expect(other.result.current[0]).toBeUndefined();
    expect(JSON.parse(localStorage.getItem('avatar-studio:columns:u1:assets') ?? '')).toEqual(
      layout,
    );
    act(() => mine.result.current[1](undefined));
    expect(mine.result.current[0]).toBeUndefined();
    expect(localStorage.getItem('avatar-studio:columns:u1:assets')).toBeNull();
  });

  it('ignores stored text that is not a layout', () => {
    localStorage.setItem('avatar-studio:columns:u1:assets', '{"order":"x"}');
    localStorage.setItem('avatar-studio:columns:u1:users', 'not json');
    expect(
      renderHook(() => useColumnLayout('assets'), { wrapper: as('u1') }).result.current[0],
    ).toBeUndefined();
    expect(
      renderHook(() => useColumnLayout('users'), { wrapper: as('u1') }).result.current[0],
    ).toBeUndefined();
  });

  it('refuses a layout with absurd sizes', () => {
    const many = Array.from({ length: 1000 }, (_, i) => `c${i}`);
    expect(columnLayoutSchema.safeParse({ order: many, hidden: [], widths: {} }).success).toBe(
      false,
    );
    expect(
      columnLayoutSchema.safeParse({ order: [], hidden: [], widths: { a: 1e9 } }).success,
    ).toBe(false);
  });
});
