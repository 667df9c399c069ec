/**
 * `npm run drill -- <name>`: fault and recovery drills against real processes, each printing
 * what it saw and exiting 1 when something did not hold (docs/operating.md "Backups").
 * - `backup [--out <folder>] [--keep]`: back up the installation the settings name, restore it
 *   into a fresh database and folder or bucket, start a server on it and check it
 *   (scripts/backup-drill.ts).
 * - `kill`: SIGKILL a server in the middle of a morph job, a delivery and an upload, and check
 *   that another server on the same PostgreSQL database and files ends each (scripts/kill-drill.ts).
 */
const [drill, ...args] = process.argv.slice(2);
if (drill === 'backup') {
  const { backupDrillCommand } = await import('./backup-drill');
  process.exit(await backupDrillCommand(args));
}
if (drill === 'kill') {
  const { killDrillCommand } = await import('./kill-drill');
  process.exit(await killDrillCommand());
}
console.error(`Unknown drill ${JSON.stringify(drill ?? '')}: npm run drill -- backup | kill`);
process.exit(2);

export {};
