import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../test-app';
import { securityHeaders } from './security-headers';

/** The page policy's directives, by name, for a server with `env`. */
async function pagePolicy(env: Record<string, string>, path = '/assets') {
  const app = new Hono();
  app.use('*', securityHeaders(testConfig(env)));
  app.get('*', (c) => c.html('<!doctype html>'));
  const header = (await app.request(path)).headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    header.split('; ').map((directive) => {
      const [name = '', ...values] = directive.split(' ');
      return [name, values];
    }),
  );
}

const PRODUCTION = {
  NODE_ENV: 'production',
  ADMIN_PASSWORD: 'a-long-production-password',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  PUBLIC_URL: 'https://avatars.example',
};

describe('the page policy', () => {
  it('lets a production page fetch, show and play only from itself and MODEL_ORIGINS', async () => {
    const alone = await pagePolicy(PRODUCTION);
    for (const directive of ['connect-src', 'img-src', 'media-src']) {
      expect(alone[directive], directive).toEqual(["'self'", 'data:', 'blob:']);
    }
    const listed = await pagePolicy({
      ...PRODUCTION,
      MODEL_ORIGINS: 'https://models.example https://cdn.example:8443',
    });
    for (const directive of ['connect-src', 'img-src', 'media-src']) {
      expect(listed[directive], directive).toEqual([
        "'self'",
        'data:',
        'blob:',
        'https://models.example',
        'https://cdn.example:8443',
      ]);
    }
    // /embed gets the same sources, with its own frame-ancestors.
    const embed = await pagePolicy(
      { ...PRODUCTION, MODEL_ORIGINS: 'https://models.example' },
      '/embed',
    );
    expect(embed['connect-src']).toContain('https://models.example');
    expect(embed['frame-ancestors']).toEqual(['*']);
  });

  it('names no host wildcard a script could send data to', async () => {
    for (const env of [PRODUCTION, {}]) {
      const policy = await pagePolicy(env);
      for (const [name, values] of Object.entries(policy)) {
        expect(values, name).not.toContain('https:');
        expect(values, name).not.toContain('http:');
        expect(values, name).not.toContain('*');
      }
    }
  });

  it('lets a development page load models from loopback over http', async () => {
    const policy = await pagePolicy({});
    expect(policy['connect-src']).toEqual([
      "'self'",
      'data:',
      'blob:',
      'http://localhost:*',
      'http://127.0.0.1:*',
    ]);
    expect((await pagePolicy(PRODUCTION))['connect-src']).not.toContain('http://localhost:*');
  });
});
