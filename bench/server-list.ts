/**
 * GET /v1/assets on 100,000 assets (in-memory PGlite): p50/p95 latency of the list shapes the
 * back office uses, each p95 also as a ratio of the default-order p95 of the same run, so the
 * figures compare across machines. Run:
 * node --import tsx -e "import('./bench/server-list.ts').then(m => m.benchServerList())"
 */
import { performance } from 'node:perf_hooks';
import { createPgliteDb } from '../server/db';
import { migrate } from '../server/migrate';
import { signedInBenchApp } from './server-app';
import { percentile } from './stats';

const ASSETS = 100_000;
const WARMUP = 20;
const RUNS = 80;

const SCENARIOS: [name: string, query: string][] = [
  ['default order, page 1', ''],
  ['default order, page 500', 'page=500'],
  ['search "hoodie"', 'search=hoodie'],
  ['type + gender filter', 'type=hair&gender=female'],
  ['order by name desc', 'order=-name'],
];

/** Seeds 100k assets, then times each scenario and prints the table. */
export async function benchServerList(): Promise<void> {
  const started = performance.now();
  const db = await createPgliteDb();
  await migrate(db);
  // generate_series builds the rows inside the database: one statement, no parameter arrays.
  await db.exec(`
    INSERT INTO assets (id, name, type, gender, icon_url, model_url, locked, position, created_at, updated_at)
    SELECT lpad(to_hex(i), 24, '0'),
           (ARRAY['Black','White','Red','Blue','Olive','Sand','Neon','Pastel','Denim','Gold'])[1 + i % 10]
             || ' ' || (ARRAY['Hoodie','Jeans','Sneakers','Bob','Beanie','Blazer','Skirt','Boots','Cap','Mask'])[1 + (i / 10) % 10]
             || ' ' || i,
           (ARRAY['outfit','top','bottom','footwear','hair','beard','glasses','headwear','facewear','body'])[1 + (i * 7) % 10],
           (ARRAY['male','female','unisex'])[1 + i % 3],
           '/icons/' || i || '.png', '/models/' || i || '.glb', i % 10 = 0, i,
           timestamptz '2024-01-01' + i * interval '1 minute',
           timestamptz '2024-01-01' + i * interval '1 minute'
    FROM generate_series(1, ${ASSETS}) AS i;
    ANALYZE;
  `);
  const seededIn = performance.now() - started;

  const { app, token } = await signedInBenchApp(db);
  const headers = { authorization: `Bearer ${token}` };

  const results: { name: string; p50: number; p95: number; totalDocs: number }[] = [];
  for (const [name, query] of SCENARIOS) {
    const times: number[] = [];
    let totalDocs = 0;
    for (let run = 0; run < WARMUP + RUNS; run += 1) {
      const start = performance.now();
      const response = await app.request(`/v1/assets?${query}`, { headers });
      const body = (await response.json()) as { pagination?: { totalDocs: number } };
      const elapsed = performance.now() - start;
      if (response.status !== 200) throw new Error(`${name}: ${JSON.stringify(body)}`);
      totalDocs = body.pagination?.totalDocs ?? 0;
      if (run >= WARMUP) times.push(elapsed);
    }
    results.push({ name, p50: percentile(times, 50), p95: percentile(times, 95), totalDocs });
  }
  await db.close();

  const base = results[0]!.p95;
  console.log(
    `GET /v1/assets on ${ASSETS.toLocaleString('en')} assets (seeded in ${(seededIn / 1000).toFixed(1)} s, ${RUNS} runs each)`,
  );
  console.table(
    results.map((r) => ({
      scenario: r.name,
      matches: r.totalDocs,
      'p50 ms': Number(r.p50.toFixed(1)),
      'p95 ms': Number(r.p95.toFixed(1)),
      'p95 / default p95': Number((r.p95 / base).toFixed(2)),
    })),
  );
}
