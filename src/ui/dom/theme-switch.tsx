import { useEffect, useState } from 'react';
import { chooseTheme, storedTheme, THEME_EVENT, type ThemeChoice } from '../theme';

/** The light/dark switch of the shell: System (default), Light or Dark. */
export function ThemeSwitch(props: { label: string; options: Record<ThemeChoice, string> }) {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  // A choice made elsewhere (the command palette) shows here too.
  useEffect(() => {
    const follow = () => setChoice(storedTheme());
    window.addEventListener(THEME_EVENT, follow);
    return () => window.removeEventListener(THEME_EVENT, follow);
  }, []);
  return (
    <label className="theme-switch">
      <span className="visually-hidden">{props.label}</span>
      <select
        value={choice}
        onChange={(event) => {
          const next = event.target.value as ThemeChoice;
          setChoice(next);
          chooseTheme(next);
        }}
      >
        {(Object.keys(props.options) as ThemeChoice[]).map((value) => (
          <option key={value} value={value}>
            {props.options[value]}
          </option>
        ))}
      </select>
    </label>
  );
}
