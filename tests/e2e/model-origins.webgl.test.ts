/**
 * A production start's page policy keeps the viewer to the model origins it names
 * (MODEL_ORIGINS), and the viewer says so when it blocks one. Each model host here is a local
 * server on a port of its own: another origin, as a CDN would be.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerBrowser } from '../helpers/browser';
import { freePort, startServer, type TestServer } from '../helpers/server';

const MODEL = readFileSync(resolve('..', 'shared', 'fixtures', 'avatars', 'male-emissive.glb'));

/** A host that serves MODEL at /avatar.glb to any page (CORS), counting its requests. */
async function modelHost() {
  const port = await freePort();
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    response.setHeader('Access-Control-Allow-Origin', '*');
    if (request.url === '/avatar.glb') {
      response.writeHead(200, { 'Content-Type': 'model/gltf-binary' }).end(MODEL);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    origin: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise((done) => server.close(done)),
  };
}

let allowed: Awaited<ReturnType<typeof modelHost>>;
let other: Awaited<ReturnType<typeof modelHost>>;
let server: TestServer;
let browser: Awaited<ReturnType<typeof workerBrowser>>;

beforeAll(async () => {
  [allowed, other] = await Promise.all([modelHost(), modelHost()]);
  server = await startServer({
    NODE_ENV: 'production',
    ADMIN_PASSWORD: 'a-production-admin-password',
    SMTP_URL: 'smtp://127.0.0.1:9',
    PUBLIC_URL: 'https://avatars.example',
    MODEL_ORIGINS: allowed.origin,
  });
  // The worker's WebGL Chromium: each look opens a profile of its own and closes it.
  browser = await workerBrowser({ webgl: true });
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([allowed?.close(), other?.close()]);
});

/** Opens /embed on the model of `origin`, waits for the viewer's `state`; its alert, if any. */
async function embed(origin: string, state: 'spawned' | 'error') {
  const context = await browser.newContext({ width: 320, height: 320 });
  const page = await context.newPage();
  page.setDefaultTimeout(90_000);
  await page.goto(`${server.url}/embed?modelSrc=${encodeURIComponent(`${origin}/avatar.glb`)}`);
  await page.locator(`[data-state="${state}"]`).waitFor();
  const alert = page.getByRole('alert');
  const text = (await alert.count()) > 0 ? await alert.innerText() : '';
  await context.close();
  return text;
}

describe('models from another origin, in production', () => {
  it('load from an origin MODEL_ORIGINS names', async () => {
    expect(await embed(allowed.origin, 'spawned')).toBe('');
    expect(allowed.requests()).toBeGreaterThan(0);
  });

  it('are refused from any other origin, and the viewer says it is the policy', async () => {
    const alert = await embed(other.origin, 'error');
    expect(alert).toContain(
      `This page's security policy does not allow loading models from ${other.origin} (MODEL_ORIGINS)`,
    );
    // The browser never asked the other host: the policy stopped the request.
    expect(other.requests()).toBe(0);
  });
});
