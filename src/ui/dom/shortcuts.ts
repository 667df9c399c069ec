/**
 * The app's keyboard shortcuts: one list of them (SHORTCUTS) that the handlers and the `?`
 * dialog both read, the platform's modifier (Cmd on Apple systems, Ctrl elsewhere), and
 * whether a key press happens while the user types in a field.
 */

import { useEffect, useRef } from 'react';

const isApple = () => /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent);

/** The press is the platform's modifier with `letter` (Ctrl+S, or Cmd+S on macOS), nothing else. */
export function isModShortcut(event: KeyboardEvent, letter: string): boolean {
  const mod = isApple() ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  return mod && !event.altKey && !event.shiftKey && event.key.toLowerCase() === letter;
}

/** How the shortcut reads on this platform ("Ctrl+S", "⌘S"). */
export const modShortcutLabel = (letter: string) =>
  isApple() ? `⌘${letter.toUpperCase()}` : `Ctrl+${letter.toUpperCase()}`;

/** The `aria-keyshortcuts` value of the shortcut on this platform. */
export const modShortcutAria = (letter: string) =>
  `${isApple() ? 'Meta' : 'Control'}+${letter.toUpperCase()}`;

/** The element takes typed text (a text field, a text area, an editable element, a select). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes(
    target.type,
  );
}

/** The list's search field on the screen, if it has one. */
export const listSearchField = () =>
  document.querySelector<HTMLInputElement>('#main input[type="search"]');

/** What a shortcut does, as the `?` dialog and docs/using.md group them. */
export type ShortcutGroup = 'general' | 'lists' | 'forms';

/** One shortcut: its key, with the platform's modifier (Ctrl, Cmd on macOS) when `mod`. */
interface Shortcut {
  id: string;
  group: ShortcutGroup;
  key: string;
  mod?: boolean;
}

/**
 * Every shortcut of the app. The handlers match key presses against this list and the `?`
 * dialog lists it, so what the dialog says is what the keys do.
 */
export const SHORTCUTS = [
  { id: 'palette', group: 'general', key: 'k', mod: true },
  { id: 'help', group: 'general', key: '?' },
  { id: 'search', group: 'lists', key: '/' },
  { id: 'nextRow', group: 'lists', key: 'j' },
  { id: 'previousRow', group: 'lists', key: 'k' },
  { id: 'openRow', group: 'lists', key: 'Enter' },
  { id: 'save', group: 'forms', key: 's', mod: true },
] as const satisfies readonly Shortcut[];

export type ShortcutId = (typeof SHORTCUTS)[number]['id'];

/** The shortcut of that id in SHORTCUTS. */
const shortcut = (id: ShortcutId): Shortcut =>
  SHORTCUTS.find((candidate) => candidate.id === id) as Shortcut;

/** The press is the shortcut: its key, with the platform's modifier exactly when it has one. */
export function matchesShortcut(id: ShortcutId, event: KeyboardEvent): boolean {
  const { key, mod } = shortcut(id);
  if (mod) return isModShortcut(event, key);
  // Shift is how some layouts type `?` and `/`: only Ctrl, Cmd and Alt make it another key.
  return !event.ctrlKey && !event.metaKey && !event.altKey && event.key === key;
}

/** How a shortcut reads on this platform ("Ctrl+K", "⌘K", "j"). */
export const shortcutLabel = (id: ShortcutId) => {
  const { key, mod } = shortcut(id);
  return mod ? modShortcutLabel(key) : key;
};

/** The rows of the lists on the screen that stand for a record (not the header, not skeletons). */
const listRows = () =>
  [...document.querySelectorAll<HTMLElement>('#main [role="grid"] [role="row"]')].filter(
    (row) => !row.classList.contains('skeleton-row') && row.querySelector('[role="rowheader"]'),
  );

/**
 * Moves the keyboard focus to the next (1) or previous (-1) row of the list: from the focused
 * row, or onto the first (last) row when none has focus. React Aria's grid follows the focus
 * (it marks the row focus-visible and its arrow keys go on from there), and a screen reader
 * reads the row. False when the screen has no rows.
 */
function moveRowFocus(step: 1 | -1): boolean {
  const rows = listRows();
  if (rows.length === 0) return false;
  const focused = document.activeElement?.closest<HTMLElement>('[role="row"]');
  const at = focused ? rows.indexOf(focused) : -1;
  const next =
    at < 0 ? (step > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step));
  const row = rows[next]!;
  row.focus();
  row.scrollIntoView?.({ block: 'nearest' });
  return true;
}

/** The link that opens the focused row's record (its name), when a row itself has focus. */
function focusedRowLink(): HTMLAnchorElement | null {
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || !listRows().includes(focused)) return null;
  return (
    focused.querySelector<HTMLAnchorElement>('[role="rowheader"] a[href]') ??
    focused.querySelector<HTMLAnchorElement>('a[href]')
  );
}

/** What the shell's shortcuts open. */
interface ShellActions {
  openPalette: () => void;
  openHelp: () => void;
}

/**
 * The shell's shortcuts (SHORTCUTS, Ctrl+S aside: the form's own): Ctrl+K (Cmd+K) opens the
 * command palette and `?` the list of shortcuts; on a list, `/` puts the cursor in its search,
 * j and k move the focus through its rows and Enter opens the focused row's record. None acts
 * while a dialog is open (an open menu or picker is one: React Aria's popovers are dialogs, so
 * their own letters stay theirs), and the plain keys not while the user types in a field. They
 * listen in the capture phase: j, k and Enter on a row go to the list before React Aria's grid
 * would take them as type-ahead or as a selection.
 */
export function useShellShortcuts(actions: ShellActions) {
  const actionsRef = useRef(actions);
  useEffect(() => {
    actionsRef.current = actions;
  });
  useEffect(() => {
    const take = (event: KeyboardEvent) => {
      event.preventDefault();
      event.stopPropagation();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector('[role="dialog"], [role="alertdialog"]'))
        return;
      if (matchesShortcut('palette', event)) {
        take(event);
        actionsRef.current.openPalette();
        return;
      }
      if (isTypingTarget(event.target)) return;
      if (matchesShortcut('help', event)) {
        take(event);
        actionsRef.current.openHelp();
      } else if (matchesShortcut('search', event)) {
        const search = listSearchField();
        if (!search) return;
        take(event);
        search.focus();
        search.select();
      } else if (matchesShortcut('nextRow', event) || matchesShortcut('previousRow', event)) {
        if (moveRowFocus(event.key === 'j' ? 1 : -1)) take(event);
      } else if (matchesShortcut('openRow', event)) {
        const link = focusedRowLink();
        if (!link) return;
        take(event);
        link.click();
      }
    };
    document.addEventListener('keydown', onKeyDown, { capture: true });
    return () => document.removeEventListener('keydown', onKeyDown, { capture: true });
  }, []);
}
