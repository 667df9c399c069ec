import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { expectError, useTestApp } from './test-app';

const SECRET = 'x'.repeat(32);
const PRODUCTION = {
  JWT_SECRET: SECRET,
  NODE_ENV: 'production',
  ADMIN_PASSWORD: 'an-operators-own-password',
  SMTP_URL: 'smtp://mail:25',
  PUBLIC_URL: 'https://avatars.example',
};

describe('API_DOCS', () => {
  it('is off in production unless turned on, and on elsewhere unless turned off', () => {
    expect(loadConfig(PRODUCTION).apiDocs).toBe(false);
    expect(loadConfig({ ...PRODUCTION, API_DOCS: 'on' }).apiDocs).toBe(true);
    expect(loadConfig({ JWT_SECRET: SECRET }).apiDocs).toBe(true);
    expect(loadConfig({ JWT_SECRET: SECRET, API_DOCS: 'off' }).apiDocs).toBe(false);
  });

  it('refuses a value other than on or off', () => {
    expect(() => loadConfig({ JWT_SECRET: SECRET, API_DOCS: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: SECRET, API_DOCS: 'yes' })).toThrow(
      'API_DOCS must be on or off (got "yes")',
    );
  });
});

describe('with API_DOCS=off', () => {
  const t = useTestApp({ API_DOCS: 'off' });

  it('the OpenAPI document and the documentation page answer 404', async () => {
    for (const path of [
      '/v1/openapi.json',
      '/v1/docs',
      '/v1/docs/init.js',
      '/v1/docs/swagger-ui-bundle.js',
    ]) {
      expectError(await t.get(path), 404, 'NOT_FOUND');
    }
  });
});

describe('with API_DOCS=on', () => {
  const t = useTestApp({ API_DOCS: 'on' });

  it('serves the OpenAPI document and the documentation page without a token', async () => {
    expect((await t.get('/v1/openapi.json')).status).toBe(200);
    expect((await t.get('/v1/docs')).status).toBe(200);
  });

  it("answers 404 for a file the page does not use, an object's own property names too", async () => {
    expect((await t.get('/v1/docs/swagger-ui.css')).status).toBe(200);
    for (const name of ['valueOf', 'constructor', '__proto__', 'toString', 'index.html']) {
      expect((await t.get(`/v1/docs/${name}`)).status, name).toBe(404);
    }
  });
});
