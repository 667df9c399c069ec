/**
 * A rolling restart behind a proxy loses nothing: two instances of the real server (child
 * processes of server/main.ts) on one PostgreSQL database and one bucket, behind the
 * round-robin proxy of the tests, which health-checks each instance's /readyz (as a load
 * balancer does) and passes over one that refuses the connection (as nginx and HAProxy do).
 * While creates (with Idempotency-Key), saves (with If-Match), reads and a live event stream
 * run through the proxy, A is stopped with SIGTERM and started again, then B. Each stopping
 * instance answers /readyz 503 and serves on until the proxy has taken it out of rotation, so
 * no request fails, none is sent again; every acknowledged write is stored exactly once, the
 * stream resumes from its Last-Event-ID without a hole, and the morph job A had claimed is
 * finished by B.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { login } from '../tests/helpers/accounts';
import { startInstances, type Instances } from '../tests/helpers/instances';
import { startRoundRobinProxy, type RoundRobinProxy } from '../tests/helpers/proxy';
import { startServer } from '../tests/helpers/server';
import { startRelay } from '../tests/helpers/relay';
import { useAnswerCheck } from './test-app';

const answers = useAnswerCheck();

/** How often the proxy asks each instance's /readyz. */
const HEALTH_CHECK_MS = 100;

describe('a rolling restart behind a proxy', () => {
  const stops: (() => Promise<void>)[] = [];
  let instances: Instances;
  let proxy: RoundRobinProxy;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let db: pg.Pool;

  beforeAll(async () => {
    relay = await startRelay(new URL(process.env.TEST_S3_ENDPOINT ?? 'http://127.0.0.1:1'));
    stops.push(() => Promise.resolve(relay.close()));
    // A reads the bucket through a relay the test can hold, so the morph job it claims waits
    // there until A is stopped; B runs no morph worker until its own restart. Their logs say
    // what each stop did. A stopping instance serves on for 20 of the proxy's health checks.
    instances = await startInstances(
      2,
      { LOG_LEVEL: 'info', SHUTDOWN_DEREGISTER_MS: String(20 * HEALTH_CHECK_MS) },
      stops,
      (index): Record<string, string> =>
        index === 0 ? { S3_ENDPOINT: relay.url } : { MORPH_WORKER: 'off' },
    );
    proxy = await startRoundRobinProxy(
      instances.servers.map((server) => server.url),
      { healthCheck: { path: '/readyz', intervalMs: HEALTH_CHECK_MS } },
    );
    stops.push(() => proxy.close());
    db = new pg.Pool({ connectionString: instances.env.DATABASE_URL, max: 2 });
    stops.push(() => db.end());
    // The seeded queue's entries are not this test's: only the job it makes is left to claim.
    await db.query(`DELETE FROM morph_queue WHERE status IN ('queued', 'processing')`);
  }, 120_000);
  afterAll(async () => {
    while (stops.length > 0) await stops.pop()!().catch(() => {});
  });

  it('loses no request, no write, no event and no job while A, then B, stop and start again', async () => {
    const token = await login(proxy.url);
    const failures: string[] = [];
    /** One request through the proxy, sent once: any answer but 200 is a failure. */
    const call = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<{ data: Record<string, unknown> } | undefined> => {
      try {
        const response = await answers.fetch(`${proxy.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        if (response.status !== 200) failures.push(`${method} ${path}: ${response.status} ${text}`);
        return response.status === 200
          ? {
              data: (JSON.parse(text) as { data: Record<string, unknown> }).data,
            }
          : undefined;
      } catch (error) {
        failures.push(`${method} ${path}: ${String(error)}`);
        return undefined;
      }
    };

    // Writers: a create under a key, a save of it with If-Match, a read; again until told.
    const run = randomUUID().slice(0, 8);
    const created = new Map<string, string>();
    const saved = new Map<string, string>();
    let writing = true;
    const writer = async (w: number) => {
      for (let i = 0; writing; i += 1) {
        const name = `Rolling ${run} ${w}-${i}`;
        const create = await call(
          'POST',
          '/v1/assets',
          { name, type: 'top', gender: 'male' },
          { 'idempotency-key': `${run}-${w}-${i}` },
        );
        if (create === undefined) continue;
        const id = String(create.data.id);
        created.set(name, id);
        const description = `Saved ${i}`;
        const save = await call(
          'PATCH',
          `/v1/assets/${id}`,
          { description },
          {
            'if-match': `"${String(create.data.version)}"`,
          },
        );
        if (save !== undefined) saved.set(id, description);
        await call('GET', '/v1/assets?limit=5');
      }
    };

    // The live stream, through the proxy: resumed from its last id each time it ends.
    const seen: number[] = [];
    const streamStatuses: number[] = [];
    let resets = 0;
    const streaming = new AbortController();
    const stream = (async () => {
      let lastId: string | undefined;
      while (!streaming.signal.aborted) {
        try {
          const response = await answers.fetch(`${proxy.url}/v1/events`, {
            headers: {
              authorization: `Bearer ${token}`,
              accept: 'text/event-stream',
              ...(lastId === undefined ? {} : { 'last-event-id': lastId }),
            },
            signal: streaming.signal,
          });
          streamStatuses.push(response.status);
          if (response.status !== 200) {
            failures.push(`GET /v1/events: ${response.status} ${await response.text()}`);
            return;
          }
          let buffer = '';
          for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
            buffer += chunk;
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              const frame = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const id = /^id: (\d+)$/m.exec(frame)?.[1];
              const event = /^event: (.+)$/m.exec(frame)?.[1];
              if (id === undefined) continue;
              lastId = id;
              if (event === 'reset') resets += 1;
              else if (event !== 'ready') seen.push(Number(id));
            }
          }
        } catch (error) {
          if (!streaming.signal.aborted) failures.push(`GET /v1/events: ${String(error)}`);
        }
      }
    })();

    const writers = [0, 1, 2].map(writer);
    const [a, b] = [0, 1];
    const server = (index: number) => instances.servers[index]!;
    /** Waits for `count` more acknowledged creates: traffic flows before and after each step. */
    const moreCreates = async (count: number) => {
      const target = created.size + count;
      await vi.waitFor(() => expect(created.size).toBeGreaterThanOrEqual(target), {
        timeout: 20_000,
        interval: 20,
      });
    };
    const restart = async (
      index: number,
      env: Record<string, string>,
      whileStopping?: () => Promise<void>,
    ) => {
      const old = server(index);
      const stopped = old.stop({ signal: 'SIGTERM', keepData: true });
      await whileStopping?.();
      await stopped;
      expect(old.exitCode(), old.output().slice(-4000)).toBe(0);
      expect(old.output()).toContain('Stopped.');
      expect(old.output()).toContain(`serving for ${20 * HEALTH_CHECK_MS} ms more`);
      await moreCreates(3);
      const port = Number(new URL(old.url).port);
      instances.servers[index] = await startServer(
        { ...instances.env, ...env },
        { port, dataDir: old.dataDir },
      );
      return old;
    };

    await moreCreates(5);
    // A morph job that A claims, and that waits on A's held bucket.
    relay.hold(true);
    const source = await call('GET', '/v1/assets?type=outfit&limit=1');
    const body = await call('GET', '/v1/assets?type=body&limit=1');
    const sourceId = String((source?.data as unknown as { id: string }[])[0]!.id);
    const bodyId = String((body?.data as unknown as { id: string }[])[0]!.id);
    await call('POST', '/v1/morphed-assets/generate', {
      sourceAssetId: sourceId,
      bodyAssetIds: [bodyId],
    });
    const entry = async () =>
      (
        await db.query<{ id: string; status: string }>(
          'SELECT id, status FROM morph_queue WHERE source_asset_id = $1 AND body_asset_id = $2',
          [sourceId, bodyId],
        )
      ).rows;
    await vi.waitFor(
      async () => expect((await entry()).map((row) => row.status)).toEqual(['processing']),
      {
        timeout: 20_000,
        interval: 50,
      },
    );

    // A stops: it hands its job back at once (the bucket answers again once it has, so its last
    // reads end), and comes back without a morph worker: the job is B's to finish.
    await restart(a, { MORPH_WORKER: 'off' }, async () => {
      await vi.waitFor(
        () => expect(server(a).output().slice(-4000)).toContain('Handed back 1 morph entries'),
        { timeout: 10_000, interval: 20 },
      );
      relay.hold(false);
    });
    expect((await entry()).map((row) => row.status)).toEqual(['queued']);
    await moreCreates(5);
    // B stops and comes back, now with a morph worker.
    await restart(b, { MORPH_WORKER: 'on' });
    await moreCreates(5);
    writing = false;
    await Promise.all(writers);

    // B finished the job A let go of (the only morph worker since A's restart is B's).
    await vi.waitFor(
      async () => expect((await entry()).map((row) => row.status)).toEqual(['completed']),
      { timeout: 30_000, interval: 100 },
    );
    // The stream saw every event up to the last one stored, then it ends.
    const { rows: last } = await db.query<{ seq: string }>(
      'SELECT max(seq)::text AS seq FROM asset_events',
    );
    await vi.waitFor(() => expect(Math.max(...seen)).toBeGreaterThanOrEqual(Number(last[0]!.seq)), {
      timeout: 10_000,
      interval: 20,
    });
    streaming.abort();
    await stream;

    expect(failures).toEqual([]);
    // The stream was resumed (each instance it was on stopped), never reset, without a hole.
    expect(streamStatuses.length).toBeGreaterThan(1);
    expect(resets).toBe(0);
    const { rows: stored } = await db.query<{ seq: string }>(
      // bigint comes back as text; ordered as the number it is (a text column would put 1000
      // before 132).
      'SELECT seq FROM asset_events WHERE seq >= $1 AND seq <= $2 ORDER BY seq',
      [Math.min(...seen), Math.max(...seen)],
    );
    const storedSeqs = stored.map((row) => Number(row.seq));
    // Named, so a failure says which events went missing, came twice or out of order.
    expect({
      missing: storedSeqs.filter((seq) => !seen.includes(seq)),
      twice: seen.filter((seq, i) => seen.indexOf(seq) !== i),
      outOfOrder: seen.filter((seq, i) => i > 0 && seq < seen[i - 1]!),
    }).toEqual({ missing: [], twice: [], outOfOrder: [] });
    expect(seen).toEqual(storedSeqs);
    // Every acknowledged create is stored once, with the id it was answered; every save kept.
    const { rows: assets } = await db.query<{ id: string; name: string; description: string }>(
      'SELECT id, name, description FROM assets WHERE name LIKE $1',
      [`Rolling ${run} %`],
    );
    expect(assets).toHaveLength(created.size);
    for (const asset of assets) {
      expect(created.get(asset.name)).toBe(asset.id);
      if (saved.has(asset.id)) expect(asset.description).toBe(saved.get(asset.id));
    }
    expect(saved.size).toBe(created.size);
    // Both instances served through the proxy, before and after their restarts.
    expect(proxy.sent.every((count) => count > 10)).toBe(true);
  }, 120_000);
});
