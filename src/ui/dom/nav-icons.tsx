/** The navigation's icons: simple line drawings in the text's colour, read by no one. */

const PATHS = {
  dashboard: 'M4 4h7v7H4z M13 4h7v4h-7z M13 10h7v10h-7z M4 13h7v7H4z',
  assets: 'M12 3 3 7.5v9L12 21l9-4.5v-9z M3 7.5 12 12l9-4.5 M12 12v9',
  applications: 'M4 5h16v14H4z M4 9h16 M8 13h8 M8 16h5',
  morphQueue: 'M4 6h9 M4 12h9 M4 18h9 M17 9l3 3-3 3',
  morphedAssets:
    'M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8z M19 15l.7 1.8 1.8.7-1.8.7L19 20l-.7-1.8-1.8-.7 1.8-.7z',
  cageMeshes: 'M12 3 3 19h18z M7.5 11h9 M12 3v16 M7.5 11 12 19 M16.5 11 12 19',
  tags: 'M3 12V4h8l10 10-8 8z M7.5 7.5h.01',
  users:
    'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z M2 21v-1a6 6 0 0 1 12 0v1 M16 3.5a4 4 0 0 1 0 7.5 M18 14.5a6 6 0 0 1 4 5.5v1',
  invitations: 'M3 6h18v12H3z M3 6l9 7 9-7',
  myAssets: 'M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z M4 21v-1a8 8 0 0 1 16 0v1',
  trash: 'M4 7h16 M9 7V4h6v3 M6 7l1 13h10l1-13 M10 11v6 M14 11v6',
  activity: 'M3 12h4l3-8 4 16 3-8h4',
  bulkJobs: 'M3 5h18v4H3z M3 15h18v4H3z M5 7h9 M5 17h4',
  collapse: 'M4 4h16v16H4z M9 4v16 M15.5 9.5 13 12l2.5 2.5',
  expand: 'M4 4h16v16H4z M9 4v16 M13 9.5l2.5 2.5-2.5 2.5',
  close: 'M6 6l12 12 M18 6 6 18',
} as const;

export type NavIconName = keyof typeof PATHS;

export function NavIcon({ name }: { name: NavIconName }) {
  return (
    <svg
      className="nav-icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
