/**
 * A byte count for people, with MB = 1024 × 1024 bytes as the spec counts: '5 MB', '1.5 KB'.
 * A module of its own so that screens that only show sizes (the dashboard) do not load the
 * file checks of validate.ts.
 */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : Math.round(value * 10) / 10} ${units[unit]}`;
}
