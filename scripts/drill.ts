/**
 * `npm run drill -- <name>`: fault and recovery drills against real processes, each printing
 * what it saw and exiting 1 when something did not hold (docs/operating.md "Backups").
 * - `backup [--out <folder>] [--keep]`: back up the installation the settings name, restore it
 *   into a fresh database and folder or bucket, start a server on it and check it
 *   (scripts/backup-drill.ts).
 */
const [name, ...args] = process.argv.slice(2);
if (name === 'backup') {
  const { backupDrillCommand } = await import('./backup-drill');
  process.exit(await backupDrillCommand(args));
}
console.error(`Unknown drill ${JSON.stringify(name ?? '')}: npm run drill -- backup`);
process.exit(2);
