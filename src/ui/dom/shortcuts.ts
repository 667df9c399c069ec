/**
 * The app's keyboard shortcuts: the platform's modifier (Cmd on Apple systems, Ctrl
 * elsewhere) with a letter, and whether a key press happens while the user types in a field.
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

/**
 * The shell's shortcuts: Ctrl+K (Cmd+K) opens the command palette, `/` outside a text field
 * puts the cursor in the list's search. Neither acts while a dialog is open.
 */
export function useShellShortcuts(openPalette: () => void) {
  const openRef = useRef(openPalette);
  useEffect(() => {
    openRef.current = openPalette;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || document.querySelector('[role="dialog"], [role="alertdialog"]'))
        return;
      if (isModShortcut(event, 'k')) {
        event.preventDefault();
        openRef.current();
        return;
      }
      const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
      if (event.key !== '/' || !plain || isTypingTarget(event.target)) return;
      const search = listSearchField();
      if (!search) return;
      event.preventDefault();
      search.focus();
      search.select();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
