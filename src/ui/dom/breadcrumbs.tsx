import type { ReactNode } from 'react';

/**
 * Where a screen sits: links to the screens above it, then the screen itself, marked as the
 * current page (e.g. "Assets › Olive Cyber"). The trail's links must not mark themselves
 * current too (a router link to /assets is active on /assets/1 unless it matches exactly).
 */
export function Breadcrumbs(props: { label: string; trail: ReactNode[]; current: string }) {
  return (
    <nav aria-label={props.label} className="breadcrumbs">
      <ol>
        {props.trail.map((link, index) => (
          <li key={index}>{link}</li>
        ))}
        <li aria-current="page">{props.current}</li>
      </ol>
    </nav>
  );
}
