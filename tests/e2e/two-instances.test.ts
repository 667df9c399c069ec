/**
 * Two instances of the real server on one PostgreSQL database and one S3 bucket (a real Ceph
 * RADOS Gateway), behind a round-robin proxy: what one instance stores, the other serves,
 * edits and deletes; the live stream carries one instance's changes to a browser on the other;
 * and one instance's sweep cleans the bucket of files uploaded through either.
 *
 * Where a step must happen on one instance, the test talks to that instance directly (its own
 * port) rather than through the proxy, and says so; the proxy carries a whole browser session
 * (pages, API, uploads and the live event stream) alternating between the two.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '../helpers/accounts';
import { signedInPage, type AppUnderTest, signedInAt } from '../helpers/app';
import { launchBrowser } from '../helpers/browser';
import { startInstances, type Instances } from '../helpers/instances';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/proxy';
import type { TestServer } from '../helpers/server';

const MODEL = readFileSync(resolve('..', 'shared', 'fixtures', 'avatars', 'spawn-effect.glb'));
/** Everything live must show within this (the promise tests/e2e/live.test.ts holds). */
const LIVE_MS = 2_000;

/** POST /v1/uploads/model (the SPA's upload route) to one instance; answers the file's address. */
async function uploadModel(url: string, token: string, name: string): Promise<string> {
  const response = await fetch(`${url}/v1/uploads/model`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-file-name': name },
    body: MODEL,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { data: { url: string } }).data.url;
}

const keyOf = (fileUrl: string) => fileUrl.replace(/^\/files\//, '');

/** A female top named `name` using the model at `modelUrl`, created on one instance; its id. */
async function createAsset(url: string, token: string, asset: { name: string; modelUrl: string }) {
  const body = { ...asset, type: 'top', gender: 'female' };
  return String((await api(url, '/v1/assets', token, 'POST', body)).id);
}

describe('two instances on one database and one bucket', () => {
  /** Everything started so far, stopped after the tests even when a start runs out of time. */
  const stops: (() => Promise<void>)[] = [];
  let instances: Instances;
  let proxy: RoundRobinProxy;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  /** Instance A and B, each talked to directly. */
  const a = () => instances.servers[0]!;
  const b = () => instances.servers[1]!;
  /** The browser against one address (an instance, or the proxy). */
  const at = (url: string): AppUnderTest => ({ server: { url } as TestServer, browser });

  /** Whether the bucket holds `key`. */
  async function inBucket(key: string): Promise<boolean> {
    const { client, name } = instances.bucket;
    try {
      await client.send(new HeadObjectCommand({ Bucket: name, Key: key }));
      return true;
    } catch (error) {
      if ((error as { name?: string }).name === 'NotFound') return false;
      throw error;
    }
  }

  // Starting Ceph and two servers may take a few minutes on a busy machine.
  beforeAll(async () => {
    // The asset page's live updates are what is tested here, not morphing.
    instances = await startInstances(2, { MORPH_WORKER: 'off' }, stops);
    proxy = await startRoundRobinProxy([a().url, b().url]);
    stops.push(() => proxy.close());
    browser = await launchBrowser();
    stops.push(() => browser.close());
  }, 300_000);
  afterAll(async () => {
    while (stops.length > 0) await stops.pop()!().catch(() => {});
  });

  it('a browser session through the proxy works on both, the live stream included', async () => {
    const before = [...proxy.sent];
    const page = await signedInPage(at(proxy.url));
    const token = await login(a().url);
    const name = `Shared ${Date.now()}`;
    // Uploaded and created through A (directly): the model is in the bucket, not on A's disk.
    const modelUrl = await uploadModel(a().url, token, 'female-idle.glb');
    expect(await inBucket(keyOf(modelUrl))).toBe(true);
    const id = await createAsset(a().url, token, { name, modelUrl });
    // The page's live event stream, through the proxy.
    const streams: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/v1/events') {
        streams.push(`${response.status()} ${response.headers()['content-type']}`);
      }
    });
    await page.goto(`${proxy.url}/assets/${id}`);
    await page.getByRole('heading', { name: `Asset ${name}` }).waitFor();
    await expect
      .poll(() => streams)
      .toContainEqual(expect.stringMatching(/^200 text\/event-stream/));
    // Requests of this one page went to both instances.
    expect(proxy.sent[0]! - before[0]!).toBeGreaterThan(2);
    expect(proxy.sent[1]! - before[1]!).toBeGreaterThan(2);

    // A change through A (directly) reaches the page whose event stream the proxy carries,
    // whichever instance serves that stream, without a reload.
    await api(a().url, `/v1/assets/${id}`, token, 'PATCH', { name: `${name} renamed` });
    await page
      .getByRole('heading', { name: `Asset ${name} renamed` })
      .waitFor({ timeout: LIVE_MS });
    // The model's stored name and size, read from the shared database, and its download.
    const modelField = page.locator('.file-drop').filter({
      has: page.getByLabel('Model (.glb)', { exact: true }),
    });
    await modelField.getByText('female-idle.glb', { exact: true }).waitFor();
    await page.context().close();
  });

  it('what A stores, B shows, edits, serves by range and deletes; one sweep on A cleans the bucket for both', async () => {
    const token = await login(a().url);
    const name = `Across ${Date.now()}`;
    // Through A only (directly): the upload and the asset that uses it.
    const modelUrl = await uploadModel(a().url, token, 'female-idle.glb');
    const id = await createAsset(a().url, token, { name, modelUrl });

    // Through B only (a browser signed in on B's own address).
    const page = await signedInAt(at(b().url), `${b().url}/assets/${id}`);
    await page.getByRole('heading', { name: `Asset ${name}` }).waitFor();
    const modelField = page.locator('.file-drop').filter({
      has: page.getByLabel('Model (.glb)', { exact: true }),
    });
    await modelField.getByText('female-idle.glb', { exact: true }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modelField.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('female-idle.glb');
    expect(Buffer.compare(readFileSync(await download.path()), MODEL)).toBe(0);

    // A range of the file, from B.
    const part = await fetch(`${b().url}${modelUrl}`, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${MODEL.byteLength}`);
    expect(Buffer.compare(Buffer.from(await part.arrayBuffer()), MODEL.subarray(1000, 2000))).toBe(
      0,
    );

    // An edit saved on B, which A then reads; and a change on A shows on B's page live.
    await page.getByLabel('Description').fill('Edited on B');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect((await api(a().url, `/v1/assets/${id}`, token)).description).toBe('Edited on B');
    await api(a().url, `/v1/assets/${id}`, token, 'PATCH', { name: `${name} renamed on A` });
    await page
      .getByRole('heading', { name: `Asset ${name} renamed on A` })
      .waitFor({ timeout: LIVE_MS });

    // Deleted through B (over HTTP: the browser adds nothing here): gone for A too, into the
    // Trash, its file kept until the purge.
    const tokenB = await login(b().url);
    await api(b().url, `/v1/assets/${id}`, tokenB, 'DELETE');
    await page.context().close();
    const gone = await fetch(`${a().url}/v1/assets/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(gone.status).toBe(404);
    expect((await fetch(`${a().url}${modelUrl}`)).status).toBe(200);
    // An upload through B that no asset uses.
    const abandonedUrl = await uploadModel(b().url, tokenB, 'abandoned.glb');
    const model = keyOf(modelUrl);
    const abandoned = keyOf(abandonedUrl);
    expect([await inBucket(model), await inBucket(abandoned)]).toEqual([true, true]);

    // Forty days later, A restarts and sweeps (before it listens): the Trash (30 days) is
    // purged, and both files, uploaded through A and through B, leave the shared bucket.
    const swept = await instances.restart(0, {
      CLOCK_AHEAD_DAYS: '40',
      NODE_OPTIONS: `--import=${resolve('tests/helpers/clock-ahead.mjs')}`,
    });
    expect(swept.output()).toMatch(
      /Purged 1 Trash records\. Removed 0 partial uploads and \d+ unreferenced files\./,
    );
    expect([await inBucket(model), await inBucket(abandoned)]).toEqual([false, false]);
    expect((await fetch(`${b().url}${modelUrl}`)).status).toBe(404);
    expect((await fetch(`${b().url}${abandonedUrl}`)).status).toBe(404);
    // Files still in use stay (the seeded catalogue's).
    const { client, name: bucket } = instances.bucket;
    const left = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(left.KeyCount).toBeGreaterThan(0);
  });
});
