import type { ReactNode } from 'react';

/** A 16 px line icon in the text colour (filters' `icon`, spec §3); decorative. */
const icon = (path: ReactNode) => (
  <svg
    viewBox="0 0 16 16"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.5"
    strokeLinecap="round"
    strokeLinejoin="round"
    focusable="false"
  >
    {path}
  </svg>
);

export const searchIcon = icon(
  <>
    <circle cx="7" cy="7" r="4.5" />
    <path d="m10.5 10.5 3.5 3.5" />
  </>,
);
export const typeIcon = icon(
  <>
    <rect x="2" y="2" width="5" height="5" rx="1" />
    <rect x="9" y="2" width="5" height="5" rx="1" />
    <rect x="2" y="9" width="5" height="5" rx="1" />
    <circle cx="11.5" cy="11.5" r="2.5" />
  </>,
);
export const personIcon = icon(
  <>
    <circle cx="8" cy="5" r="2.75" />
    <path d="M2.5 14c.6-3 2.8-4.5 5.5-4.5s4.9 1.5 5.5 4.5" />
  </>,
);
export const applicationIcon = icon(
  <>
    <rect x="2" y="3" width="12" height="10" rx="1.5" />
    <path d="M2 6h12" />
  </>,
);
export const tagIcon = icon(
  <>
    <path d="M2 2h5.5L14 8.5 8.5 14 2 7.5z" />
    <circle cx="5" cy="5" r="1" />
  </>,
);
export const lockIcon = icon(
  <>
    <rect x="3" y="7" width="10" height="7" rx="1.5" />
    <path d="M5 7V5a3 3 0 0 1 6 0v2" />
  </>,
);
export const statusIcon = icon(
  <>
    <circle cx="8" cy="8" r="6" />
    <path d="M8 4.5V8l2.5 1.5" />
  </>,
);
