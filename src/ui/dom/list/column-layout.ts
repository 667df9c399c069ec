/**
 * Which columns a list shows, in which order and how wide: chosen by the user, remembered per
 * user and per list in this browser. Saved views save and apply a layout through this module.
 */
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import {
  columnLayoutSchema,
  MAX_COLUMN_WIDTH,
  MIN_COLUMN_WIDTH,
  type ColumnLayout,
} from '../../../../contract/saved-views';

// The shape and bounds of a layout are the contract's: saved views keep layouts too. Where a hook
// answers `undefined`, the list shows its default columns.
export type { ColumnLayout };
export { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH };

/**
 * A layout fitted to the list's columns as they are now: unknown columns are dropped, columns
 * it does not name join at their default place, the first column (the row's name) stays first
 * and shown, and widths are whole pixels within bounds.
 */
export function repairColumnLayout(
  layout: ColumnLayout | undefined,
  fields: readonly string[],
): ColumnLayout {
  const [nameField] = fields;
  const known = new Set(fields);
  const named = [...new Set(layout?.order ?? [])].filter((f) => known.has(f) && f !== nameField);
  const order = nameField === undefined ? [] : [nameField];
  // A column the layout does not name goes after the column that precedes it by default.
  const placed = new Set(named);
  const rest = [...named];
  fields.forEach((f, index) => {
    if (f === nameField || placed.has(f)) return;
    const before = fields.slice(0, index).findLast((g) => g !== nameField && rest.includes(g));
    rest.splice(before === undefined ? 0 : rest.indexOf(before) + 1, 0, f);
  });
  order.push(...rest);
  const hidden = [...new Set(layout?.hidden ?? [])].filter((f) => known.has(f) && f !== nameField);
  const widths = Object.fromEntries(
    Object.entries(layout?.widths ?? {})
      .filter(([f, w]) => known.has(f) && Number.isFinite(w))
      .map(([f, w]) => [f, Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, w)))]),
  );
  return { order, hidden, widths };
}

/** Whether a layout is the same as the defaults for these columns (nothing worth keeping). */
export function isDefaultColumnLayout(layout: ColumnLayout, fields: readonly string[]): boolean {
  return (
    layout.hidden.length === 0 &&
    Object.keys(layout.widths).length === 0 &&
    layout.order.length === fields.length &&
    layout.order.every((f, i) => f === fields[i])
  );
}

/**
 * Whose layouts the lists below read and write (the signed-in user's id): the app's frame
 * provides it, so two people sharing a browser each keep their own.
 */
export const ColumnLayoutUser = createContext<string>('');

const KEY = 'avatar-studio:columns:';
const keyOf = (user: string, list: string) => `${KEY}${user}:${list}`;

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(KEY)) listener();
  };
  window.addEventListener('storage', fromOtherTab);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', fromOtherTab);
  };
};

// The last text read per key and what it parsed to, so a snapshot stays the same object while
// the stored text does.
const parsed = new Map<string, { raw: string | null; layout: ColumnLayout | undefined }>();

// Where layouts live while storage is off (private windows, policies): until the page reloads.
const memory = new Map<string, string>();

function readRaw(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

function readLayout(key: string): ColumnLayout | undefined {
  const raw = readRaw(key);
  const cached = parsed.get(key);
  if (cached && cached.raw === raw) return cached.layout;
  let layout: ColumnLayout | undefined;
  try {
    const result = raw === null ? undefined : columnLayoutSchema.safeParse(JSON.parse(raw));
    layout = result?.success ? result.data : undefined;
  } catch {
    layout = undefined;
  }
  parsed.set(key, { raw, layout });
  return layout;
}

function writeLayout(key: string, layout: ColumnLayout | undefined) {
  const raw = layout ? JSON.stringify(columnLayoutSchema.parse(layout)) : null;
  try {
    if (raw === null) localStorage.removeItem(key);
    else localStorage.setItem(key, raw);
  } catch {
    if (raw === null) memory.delete(key);
    else memory.set(key, raw);
  }
  for (const listener of listeners) listener();
}

/**
 * The signed-in user's layout of one list (`listKey`, e.g. "assets") and a setter; `undefined`
 * means the list's defaults, and setting `undefined` restores them. Every user of the same list
 * sees a change at once, in this tab and in others. The layout is as stored: the table repairs
 * it against its columns (`repairColumnLayout`) before using it.
 */
export function useColumnLayout(
  listKey: string,
): [ColumnLayout | undefined, (next: ColumnLayout | undefined) => void] {
  const key = keyOf(useContext(ColumnLayoutUser), listKey);
  const layout = useSyncExternalStore(
    subscribe,
    () => readLayout(key),
    () => undefined,
  );
  const set = useCallback((next: ColumnLayout | undefined) => writeLayout(key, next), [key]);
  return [layout, set];
}
