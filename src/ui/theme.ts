/**
 * Light or dark: the system's choice unless the user picked one (kept in localStorage). The
 * choice is applied as `data-theme` on <html> before the first render (no inline script: the
 * Content-Security-Policy forbids them).
 */
import { remember, remembered } from './remembered';

export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'avatar-studio.theme';
const DARK = '(prefers-color-scheme: dark)';

export function storedTheme(): ThemeChoice {
  const value = remembered(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

function apply(choice: ThemeChoice): void {
  const dark = choice === 'dark' || (choice === 'system' && matchMedia(DARK).matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** Applies the stored choice and follows the system while the choice is "system". */
export function startTheme(): void {
  apply(storedTheme());
  matchMedia(DARK).addEventListener('change', () => {
    if (storedTheme() === 'system') apply('system');
  });
}

/** Keeps and applies the user's choice. */
export function chooseTheme(choice: ThemeChoice): void {
  // Private mode: the choice holds for this page only.
  remember(KEY, choice === 'system' ? null : choice);
  apply(choice);
  window.dispatchEvent(new Event(THEME_EVENT));
}

/** Fired on window when the user picks a theme (the shell's switch or the command palette). */
export const THEME_EVENT = 'avatar-studio:theme';
