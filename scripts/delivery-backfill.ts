/**
 * `npm run delivery:backfill [-- --retry-failed]`: derives the delivery version of every
 * asset's model that has none yet (server/deliveries.ts), one at a time, printing each. Safe to
 * run again, or beside the servers (they run the same backfill at start); Ctrl-C stops after
 * the model in progress, and the next run goes on from there. With PGlite (no DATABASE_URL) the
 * server must be stopped first: PGlite opens DATA_DIR for one process only.
 */
import { join } from 'node:path';
import { loadConfig } from '../server/config';
import { createPgDb, createPgliteDb } from '../server/db';
import { backfillDeliveries } from '../server/deliveries';
import { migrate } from '../server/migrate';
import { openStorage } from '../server/open-storage';

const config = loadConfig();
const db = config.databaseUrl
  ? createPgDb(config.databaseUrl)
  : await createPgliteDb(join(config.dataDir, 'pg'));
const stop = new AbortController();
process.once('SIGINT', () => {
  console.log('Stopping after the model in progress.');
  stop.abort();
});
try {
  await migrate(db);
  const result = await backfillDeliveries(
    { db, storage: await openStorage(config), now: () => new Date() },
    {
      retry: process.argv.includes('--retry-failed'),
      signal: stop.signal,
      onModel: (key, delivery) =>
        console.log(
          `${key}: ${delivery?.status ?? 'gone'}` +
            (delivery?.size != null ? ` (${delivery.originalSize} → ${delivery.size} bytes)` : '') +
            (delivery?.reason ? ` (${delivery.reason})` : ''),
        ),
    },
  );
  console.log(`Derived ${result.derived} models; ${result.skipped} were being derived elsewhere.`);
} finally {
  await db.close();
}
