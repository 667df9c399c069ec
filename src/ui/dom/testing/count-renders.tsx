import { Profiler, type ReactNode } from 'react';

/** The fields of React's fiber this reads (React's own, not a public API; stable since 16). */
interface Fiber {
  tag: number;
  type: unknown;
  flags: number;
  stateNode: unknown;
  child: Fiber | null;
  sibling: Fiber | null;
  return: Fiber | null;
  alternate: Fiber | null;
}

// Fiber tags of components that run their own code when they render (function, class,
// forwardRef, a memo of a function), and of a DOM element.
const COMPONENT_TAGS = new Set([0, 1, 11, 15]);
const HOST_COMPONENT = 5;
// Set on a fiber that ran its render in the commit it is part of.
const PERFORMED_WORK = 1;

const nameOf = (type: unknown): string => {
  if (typeof type === 'function') {
    const named = type as { displayName?: string; name?: string };
    return named.displayName ?? named.name ?? 'Anonymous';
  }
  if (type && typeof type === 'object' && 'render' in type) return nameOf(type.render);
  return 'Anonymous';
};

/** The row (`role="row"` element) a component renders, or renders inside of. */
function rowOf(fiber: Fiber): string | undefined {
  const isRow = (f: Fiber) =>
    f.tag === HOST_COMPONENT &&
    f.stateNode instanceof HTMLElement &&
    f.stateNode.getAttribute('role') === 'row';
  for (let up: Fiber | null = fiber; up; up = up.return) {
    if (isRow(up)) return (up.stateNode as HTMLElement).dataset.key ?? '?';
  }
  let down = fiber.child;
  while (down && down.tag !== HOST_COMPONENT) down = down.child;
  return down && isRow(down) ? ((down.stateNode as HTMLElement).dataset.key ?? '?') : undefined;
}

/**
 * Counts the components React renders under it, commit by commit, the way React's DevTools
 * tell them apart: a component renders when it mounts or runs again; a subtree React passed
 * by (same element, memo, no context change) is not walked.
 */
export function renderCounter() {
  let host: HTMLElement | null = null;
  let renders: Fiber[] = [];
  let commits: number[] = [];
  const walk = (fiber: Fiber) => {
    const previous = fiber.alternate;
    if (COMPONENT_TAGS.has(fiber.tag) && (!previous || (fiber.flags & PERFORMED_WORK) !== 0)) {
      renders.push(fiber);
    }
    if (previous && fiber.child === previous.child) return;
    for (let child = fiber.child; child; child = child.sibling) walk(child);
  };
  const committed = () => {
    if (!host) return;
    const key = Object.keys(host).find((k) => k.startsWith('__reactFiber$'));
    let fiber = key ? (host as unknown as Record<string, Fiber>)[key]! : null;
    while (fiber?.return) fiber = fiber.return;
    // The root's tree as committed now (the fiber the element points at may be the other one).
    const root = (fiber?.stateNode as { current: Fiber } | undefined)?.current;
    const before = renders.length;
    if (root) walk(root);
    commits.push(renders.length - before);
  };
  return {
    /** Wraps what is counted; the element it renders marks where the tree is. */
    wrap: (children: ReactNode) => (
      <Profiler id="render-counter" onRender={committed}>
        <div
          ref={(element) => {
            host = element;
          }}
        >
          {children}
        </div>
      </Profiler>
    ),
    /** Forgets the renders counted so far (before the interaction that is counted). */
    reset: () => {
      renders = [];
      commits = [];
    },
    /** Components rendered in each commit since the last reset. */
    get commits() {
      return [...commits];
    },
    /** Components rendered since the last reset. */
    get total() {
      return renders.length;
    },
    /**
     * The rows (their keys) any rendered component belongs to, or only those of components of
     * one name (a component above the rows, such as the table's body, counts as its first row).
     */
    rows: (name?: string) =>
      new Set(
        renders.flatMap((fiber) =>
          name === undefined || nameOf(fiber.type) === name ? (rowOf(fiber) ?? []) : [],
        ),
      ),
    /** How many renders each component name had (for reading what rendered). */
    byName: () => {
      const counts: Record<string, number> = {};
      for (const fiber of renders)
        counts[nameOf(fiber.type)] = (counts[nameOf(fiber.type)] ?? 0) + 1;
      return counts;
    },
  };
}
