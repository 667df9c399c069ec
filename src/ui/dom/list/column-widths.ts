/**
 * A list table's default column widths, from its content as its first rows show it: a column
 * whose values cannot wrap (a date, a type, a number, an e-mail) is as wide as its widest value,
 * so none is cut; the others (the name, tags) share what is left in proportion to their content,
 * each at least as wide as its longest word. A width the user set wins (column-layout.ts).
 *
 * React Aria sizes a resizable table like a flex line: pixel widths first, then `fr` columns
 * share the rest, never below their `minWidth`. A column given "the rest" without a minimum
 * gets nothing once the fixed ones fill the table, hence the minimum from its content.
 */
import { flushSync } from 'react-dom';
import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from './column-layout';

/** A column's widths with its content on one line (`max`) and wrapped at every space (`min`). */
export interface NaturalWidth {
  min: number;
  max: number;
}

/** The widest a column may be and still keep a fixed width: beyond it, it shares the rest. */
const FIXED_UP_TO = 320;

const headerWidths = (grid: HTMLElement) => {
  const widths = new Map<string, number>();
  for (const header of grid.querySelectorAll<HTMLElement>('[role="columnheader"][data-key]')) {
    const width = Math.ceil(header.getBoundingClientRect().width);
    if (width > 0 && header.dataset.key) widths.set(header.dataset.key, width);
  }
  return widths;
};

/**
 * Each column's natural widths in the rendered `grid` (a plain table, before it is resizable):
 * laid out once as wide as its content and once as narrow, inside one frame (nothing paints).
 */
function measureNaturalWidths(grid: HTMLElement): Record<string, NaturalWidth> {
  grid.classList.add('measure-max');
  const max = headerWidths(grid);
  grid.classList.replace('measure-max', 'measure-min');
  const min = headerWidths(grid);
  grid.classList.remove('measure-min');
  const natural: Record<string, NaturalWidth> = {};
  for (const [field, width] of max) natural[field] = { max: width, min: min.get(field) ?? width };
  return natural;
}

/**
 * Measures `grid` once its rows show their content (React Aria fills the cells after the
 * table's first commit), before that is painted; answers what stops waiting.
 */
export function measureWhenRowsShow(
  grid: HTMLElement,
  measured: (natural: Record<string, NaturalWidth>) => void,
): () => void {
  const shown = () => Boolean(grid.querySelector('[role="rowheader"]')?.textContent);
  if (shown()) {
    measured(measureNaturalWidths(grid));
    return () => undefined;
  }
  // Called once the content went in, before the next paint and before any input is handled:
  // the table the widths make (resizable, a new element) replaces this one at once, so no click
  // lands on a row that is about to go.
  const observer = new MutationObserver(() => {
    if (!shown()) return;
    observer.disconnect();
    flushSync(() => measured(measureNaturalWidths(grid)));
  });
  observer.observe(grid, { childList: true, characterData: true, subtree: true });
  return () => observer.disconnect();
}

const clamp = (width: number) => Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width));

/**
 * The React Aria widths of a column the user has not sized: the first column (the row's name)
 * and any that wraps or is very wide take a share of the rest; the others their content's width.
 */
export function defaultColumnWidth(
  index: number,
  natural: NaturalWidth,
): { defaultWidth: number | `${number}fr`; minWidth: number } {
  if (index > 0 && natural.min >= natural.max && natural.max <= FIXED_UP_TO) {
    // Narrower by the user's hand only.
    return { defaultWidth: clamp(natural.max), minWidth: MIN_COLUMN_WIDTH };
  }
  return { defaultWidth: `${Math.max(1, natural.max)}fr`, minWidth: clamp(natural.min) };
}
