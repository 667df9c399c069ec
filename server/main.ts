/**
 * Entry point of `npm start` / `npm run serve`: config, database, migrations, seed, the morph
 * worker, the mail worker, the file sweeper and the event bus, then the API and the built SPA on one port.
 *
 * SIGTERM or SIGINT stops it without losing a request or a job, so instances behind a proxy can
 * be restarted one at a time: /readyz answers 503 at once while the server goes on serving for
 * SHUTDOWN_DEREGISTER_MS (the proxy's health checks take it out of rotation meanwhile, so no
 * request is sent to a closing port); then the port closes; the requests in progress (uploads
 * too) get SHUTDOWN_TIMEOUT_MS to finish; the event streams end with a `retry:` hint (their
 * clients resume from their last event on another instance); claimed morph entries and
 * delivery derivations are handed back at once, queued for the other instances rather than
 * waiting out their lease; then the database closes (PGlite must be closed to flush its files)
 * and the process exits 0. A second signal exits at once.
 */
import type { Server } from 'node:http';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { createSessionCheck } from './auth/session-check';
import { ConfigError, loadConfig, type Config } from './config';
import { createPgDb, createPgliteDb, type Db } from './db';
import { backfillDeliveries, stopDeliveries } from './deliveries';
import { createEventBus } from './event-bus';
import { trackRequests } from './http/drain';
import { budgetedServer, requestBudgetOf } from './http/request-budget';
import { createDevMailbox, createSmtpTransport, type DevMailbox, type MailTransport } from './mail';
import { pruneExpired } from './maintenance';
import { configureLog, log } from './log';
import { migrate } from './migrate';
import { startMailWorker } from './mail-outbox';
import { morphWorkerEnabled, startMorphWorker } from './morph-worker';
import { startBulkWorker } from './bulk-job-worker';
import { provideDemoFiles } from './demo-files';
import { PARTIAL_UPLOAD_AGE_MS, sweepFiles, startFileSweeper } from './file-sweeper';
import { DEMO_USER, seed } from './seed';
import { hasSpa } from './static';
import { openStorage } from './open-storage';
import { withStoppableWrites } from './storage';
import { startTracing, stopTracing, tracingEnabled } from './tracing';

const PRUNE_INTERVAL_MS = 3600 * 1000;
const SHUTDOWN_GRACE_MS = 5000;

function loadConfigOrExit(): { config: Config; morphWorker: boolean } {
  try {
    return { config: loadConfig(), morphWorker: morphWorkerEnabled(process.env) };
  } catch (error) {
    if (error instanceof ConfigError) {
      log.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
}

function openDb(config: Config): Promise<Db> {
  return config.databaseUrl
    ? Promise.resolve(createPgDb(config.databaseUrl))
    : createPgliteDb(join(config.dataDir, 'pg'));
}

function openMail(config: Config): { mail: MailTransport; mailbox?: DevMailbox } {
  if (config.smtpUrl) return { mail: createSmtpTransport(config.smtpUrl, config.mailFrom) };
  // Development only (production requires SMTP_URL): mails, codes included, go to the log.
  const mailbox = createDevMailbox({ log: (line) => log.info({ job: 'mail' }, line) });
  return { mail: mailbox, mailbox };
}

async function main(): Promise<void> {
  const { config, morphWorker } = loadConfigOrExit();
  // Addresses are masked in every line, except while the log is the development mailbox (no
  // SMTP_URL, which production refuses): there its lines say which address got which code.
  configureLog({ ...config.log, emails: config.smtpUrl ? 'masked' : 'shown' });
  if (tracingEnabled(process.env)) await startTracing();
  // A bucket that is missing or refuses the credentials stops the start with one line.
  const storage = await openStorage(config).then(withStoppableWrites, (error: unknown) => {
    log.fatal(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
  const db = await openDb(config);
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ applied }, `Applied migrations: ${applied.join(', ')}`);
  const seeded = await seed(db, config);
  if (seeded.assetsSeeded > 0) log.info(`Seeded ${seeded.assetsSeeded} demo assets.`);
  await pruneExpired(db, new Date());
  const pruner = setInterval(() => {
    pruneExpired(db, new Date()).catch((error: unknown) =>
      log.error({ err: error, job: 'prune' }, 'Pruning failed'),
    );
  }, PRUNE_INTERVAL_MS);
  pruner.unref();

  // Before anything writes files: partial uploads a crash left are removed (all of them when
  // this process owns DATA_DIR, which PGlite locks; with DATABASE_URL or a bucket another
  // server may share the files, so only those nobody has written to lately).
  const swept = await sweepFiles({ db, storage }, new Date(), {
    partialAgeMs: config.databaseUrl || config.s3 ? PARTIAL_UPLOAD_AGE_MS : 0,
    trashRetentionDays: config.trashRetentionDays,
  });
  if (swept.partial + swept.unreferenced + swept.purged > 0) {
    const purged = swept.purged > 0 ? `Purged ${swept.purged} Trash records. ` : '';
    log.info(
      { job: 'file-sweep', ...swept },
      `${purged}Removed ${swept.partial} partial uploads and ${swept.unreferenced} unreferenced files.`,
    );
  }
  const sweeper = startFileSweeper(
    { db, storage, now: () => new Date() },
    { trashRetentionDays: config.trashRetentionDays },
  );
  const demoFiles = await provideDemoFiles(db, storage);
  if (demoFiles > 0) log.info(`Stored ${demoFiles} demo files.`);
  // Models stored before delivery versions existed (or whose derivation a crash interrupted).
  const backfillStop = new AbortController();
  const backfill = backfillDeliveries(
    { db, storage, now: () => new Date() },
    { signal: backfillStop.signal },
  ).then(
    ({ derived }) =>
      derived > 0 &&
      log.info({ job: 'delivery', derived }, `Derived ${derived} delivery versions.`),
    (error: unknown) =>
      log.error({ err: error, job: 'delivery' }, 'Deriving delivery versions failed'),
  );
  // A stopping server hands its entries back at once: the instances that stay take them now.
  const worker = morphWorker
    ? startMorphWorker({ db, storage, now: () => new Date() }, { stopGraceMs: 0 })
    : undefined;
  // Bulk jobs run on every server; a stopping one hands its job back after the batch in hand.
  // On PGlite's one connection a job rests as long as each batch took (a quarter second at
  // most), so the requests waiting for the database get through while it runs.
  const bulkWorker = startBulkWorker(
    {
      db,
      now: () => new Date(),
      trashRetentionDays: config.trashRetentionDays,
      requireAdminSecondFactor: config.requireAdminSecondFactor,
    },
    config.databaseUrl ? {} : { restAfterBatch: (batchMs) => Math.min(batchMs, 250) },
  );
  const events = createEventBus(db);
  const mailDeps = openMail(config);
  const mailWorker = startMailWorker({ db, mail: mailDeps.mail, now: () => new Date() });
  const sessions = createSessionCheck(db);
  const leaving = new AbortController();
  const stopping = new AbortController();
  const app = createApp({
    db,
    config,
    storage,
    events,
    sessions,
    ...mailDeps,
    leaving: leaving.signal,
    stopping: stopping.signal,
  });
  const budget = requestBudgetOf(config);
  const listen = {
    fetch: app.fetch,
    port: config.port,
    hostname: config.host,
    // A client past its budget is refused before Hono sees the request.
    createServer: budget && budgetedServer(budget, config),
  };
  const server = serve(listen, (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    const defaults = config.adminDefaults.email || config.adminDefaults.password;
    // One write, so whoever reads the log sees the whole banner at once. It ends with where to
    // go and how to sign in: the last lines a terminal shows after `npm start`.
    const spa = hasSpa(config.staticDir);
    const banner = [
      `Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${join(config.dataDir, 'pg')}`}`,
      `Files: ${config.s3 ? `S3 bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}` : join(config.dataDir, 'files')}`,
      `Morph worker: ${worker ? 'running' : 'off (MORPH_WORKER=off)'}`,
      `Avatar Studio API listening on http://${host}:${info.port}`,
      spa
        ? `Open ${config.publicUrl} and sign in:`
        : `No index.html in ${config.staticDir}: serving the API only (run npm run build). Sign in:`,
      // The password is shown for the local start only: a production log never holds one.
      `  Admin: ${config.adminEmail}` +
        (config.nodeEnv === 'production' ? '' : ` / ${config.adminPassword}`) +
        (defaults ? ' (defaults: set ADMIN_EMAIL and ADMIN_PASSWORD to change)' : '') +
        (seeded.adminCreated ? '' : ' (account already existed: its stored password is kept)'),
    ];
    if (seeded.catalogueSeeded && config.nodeEnv !== 'production') {
      banner.push(`  Demo user: ${DEMO_USER.email} / ${DEMO_USER.password}`);
    }
    log.info(banner.join('\n'));
  });

  const requests = trackRequests(server as Server);

  const stop = async (signal: string) => {
    const { shutdownDeregisterMs: deregisterMs, shutdownTimeoutMs: timeoutMs } = config;
    leaving.abort();
    if (deregisterMs > 0) {
      log.info(
        { signal, deregisterMs },
        `${signal}: /readyz answers 503; serving for ${deregisterMs} ms more while the proxy takes this instance out of rotation.`,
      );
      await delay(deregisterMs);
    }
    const timeUp = delay(timeoutMs);
    stopping.abort();
    log.info(
      { signal, timeoutMs },
      `${signal}: stopping. /readyz answers 503 and no connection is taken; requests in progress have ${timeoutMs} ms to finish.`,
    );
    clearInterval(pruner);
    backfillStop.abort();
    const jobs = Promise.all([
      worker?.stop(),
      bulkWorker.stop(),
      stopDeliveries({ db, now: () => new Date() }),
    ]).then(() => log.info('Stopping: claimed jobs handed back.'));
    const streams = events
      .close()
      .then(() => log.info('Stopping: event streams ended; their clients resume elsewhere.'));
    const drained = requests.drain(timeoutMs).then(({ cut }) => {
      if (cut > 0)
        log.warn({ cut }, `Stopping: cut ${cut} requests still running after ${timeoutMs} ms.`);
      else log.info('Stopping: every request in progress has finished.');
    });
    await Promise.all([jobs, streams, drained]);
    // The mail being sent, a sweep in progress and the files being written get what is left of
    // the time: a write cut off by the exit would leave a partial upload.
    const background = Promise.all([
      mailWorker.stop(),
      sweeper.stop(),
      backfill.then(() => storage.stopWrites()),
    ]);
    if ((await Promise.race([background, timeUp.then(() => 'time up' as const)])) === 'time up') {
      log.warn('Stopping: background work still running is left to its lease.');
    }
    await sessions.close();
    // Spans still buffered are sent, unless the collector keeps them past the grace period.
    await Promise.all([db.close(), Promise.race([stopTracing(), delay(SHUTDOWN_GRACE_MS)])]);
    log.info('Stopped.');
    process.exit(0);
  };
  let stopCalled = false;
  const onSignal = (signal: string) => {
    if (stopCalled) {
      log.warn(`${signal} again: exiting now, without waiting.`);
      process.exit(1);
    }
    stopCalled = true;
    stop(signal).catch((error: unknown) => {
      log.error({ err: error }, 'Stopping failed');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, 'Start-up failed');
  process.exit(1);
});
