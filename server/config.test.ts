import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, loadConfig } from './config';
import { tempDir } from '../tests/temp-dir';

const SECRET = 's'.repeat(40);

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({ JWT_SECRET: SECRET });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      adminEmail: DEFAULT_ADMIN_EMAIL,
      adminPassword: DEFAULT_ADMIN_PASSWORD,
      adminDefaults: { email: true, password: true },
      accessTokenTtl: 900,
      refreshTokenTtl: 30 * 24 * 3600,
      jwtSecretSource: 'env',
      nodeEnv: 'development',
      publicUrl: 'http://localhost:8080',
    });
    expect(config.dataDir).toBe(join(process.cwd(), '.data'));
    expect(config.staticDir).toBe(join(process.cwd(), 'dist'));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      JWT_SECRET: SECRET,
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u@db/app',
      ADMIN_EMAIL: 'Boss@Example.com',
      ADMIN_PASSWORD: 'boss-password',
      ACCESS_TOKEN_TTL: '60',
      REFRESH_TOKEN_TTL: '3600',
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'me@example.com',
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://avatars.example/',
      STATIC_DIR: '/srv/app',
      TRUST_PROXY: 'true',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u@db/app',
      adminEmail: 'boss@example.com',
      adminDefaults: { email: false, password: false },
      accessTokenTtl: 60,
      refreshTokenTtl: 3600,
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'me@example.com',
      nodeEnv: 'production',
      publicUrl: 'https://avatars.example',
      staticDir: '/srv/app',
      trustProxy: true,
    });
  });

  it('derives a separate key for each use from the secret, none of them the secret', () => {
    const { keys } = loadConfig({ JWT_SECRET: SECRET });
    expect(keys.tokenSigning).not.toBe(keys.codeHashing);
    expect([keys.tokenSigning, keys.codeHashing]).not.toContain(SECRET);
    expect(loadConfig({ JWT_SECRET: SECRET }).keys).toEqual(keys);
    expect(loadConfig({ JWT_SECRET: 't'.repeat(40) }).keys.tokenSigning).not.toBe(
      keys.tokenSigning,
    );
    expect(loadConfig({ JWT_SECRET: SECRET }).trustProxy).toBe(false);
  });

  it('lists every bad value in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'abc',
        ACCESS_TOKEN_TTL: '-5',
        ADMIN_EMAIL: 'nope',
        ADMIN_PASSWORD: 'short',
        JWT_SECRET: 'short',
        DATABASE_URL: 'mysql://x',
        SMTP_URL: 'http://x',
        TRUST_PROXY: 'yes',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems).toHaveLength(8);
    expect(message).toContain('TRUST_PROXY must be true or false');
    expect(message).toContain('PORT must be an integer from 1 to 65535 (got "abc")');
    expect(message).toContain('ACCESS_TOKEN_TTL');
  });

  it('takes a stopping server out of rotation for 10 s in production and not at all elsewhere', () => {
    const production = {
      JWT_SECRET: SECRET,
      NODE_ENV: 'production',
      ADMIN_PASSWORD: 'a-long-private-password',
      SMTP_URL: 'smtp://mail:25',
      PUBLIC_URL: 'https://avatars.example',
    };
    expect(loadConfig(production).shutdownDeregisterMs).toBe(10_000);
    expect(loadConfig({ JWT_SECRET: SECRET }).shutdownDeregisterMs).toBe(0);
    const set = { JWT_SECRET: SECRET, SHUTDOWN_DEREGISTER_MS: '2500' };
    expect(loadConfig(set).shutdownDeregisterMs).toBe(2500);
    expect(() => loadConfig({ JWT_SECRET: SECRET, SHUTDOWN_DEREGISTER_MS: '-1' })).toThrow(
      'SHUTDOWN_DEREGISTER_MS must be an integer from 0 to 600000',
    );
  });

  it('budgets each client 50 requests a second in production, none elsewhere unless set', () => {
    const production = {
      JWT_SECRET: SECRET,
      NODE_ENV: 'production',
      ADMIN_PASSWORD: 'a-long-private-password',
      SMTP_URL: 'smtp://mail:25',
      PUBLIC_URL: 'https://avatars.example',
    };
    expect(loadConfig(production).clientRequestRate).toBe(50);
    expect(loadConfig({ ...production, CLIENT_REQUEST_RATE: '0' }).clientRequestRate).toBe(0);
    expect(loadConfig({ JWT_SECRET: SECRET }).clientRequestRate).toBe(0);
    expect(loadConfig({ JWT_SECRET: SECRET, CLIENT_REQUEST_RATE: '200' }).clientRequestRate).toBe(
      200,
    );
    expect(() => loadConfig({ JWT_SECRET: SECRET, CLIENT_REQUEST_RATE: '2.5' })).toThrow(
      'CLIENT_REQUEST_RATE must be an integer from 0 to 100000',
    );
  });

  it('refuses to start in production with the published admin password, a short one or no SMTP', () => {
    const production = { JWT_SECRET: SECRET, NODE_ENV: 'production' };
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems(production)).toEqual([
      expect.stringContaining('ADMIN_PASSWORD must be set to a password of your own'),
      expect.stringContaining('SMTP_URL must be set with NODE_ENV=production'),
      expect.stringContaining('PUBLIC_URL must be set with NODE_ENV=production'),
    ]);
    const set = { SMTP_URL: 'smtp://mail:25', PUBLIC_URL: 'https://avatars.example' };
    expect(problems({ ...production, ...set, ADMIN_PASSWORD: 'elevenchars' })).toEqual([
      'ADMIN_PASSWORD must be at least 12 characters',
    ]);
    expect(problems({ ...production, ...set, ADMIN_PASSWORD: 'administrator' })).toEqual([
      expect.stringContaining('is one of the most common passwords'),
    ]);
    expect(problems({ ...production, ...set, ADMIN_PASSWORD: 'twelve-chars' })).toEqual([]);
    // The local start (development) keeps its defaults and its log mailbox, not a short password.
    expect(problems({ JWT_SECRET: SECRET })).toEqual([]);
    expect(problems({ JWT_SECRET: SECRET, ADMIN_PASSWORD: 'elevenchars' })).toEqual([
      'ADMIN_PASSWORD must be at least 12 characters',
    ]);
  });

  it('takes the public address from PUBLIC_URL: an http(s) origin, nothing more', () => {
    const publicUrl = (value: string) => loadConfig({ JWT_SECRET: SECRET, PUBLIC_URL: value });
    expect(loadConfig({ JWT_SECRET: SECRET, PORT: '3000' }).publicUrl).toBe(
      'http://localhost:3000',
    );
    expect(publicUrl('https://Avatars.Example:8443/').publicUrl).toBe(
      'https://avatars.example:8443',
    );
    expect(publicUrl('http://10.0.0.5:8080').publicUrl).toBe('http://10.0.0.5:8080');
    for (const bad of [
      'avatars.example',
      '/app',
      'ftp://avatars.example',
      'javascript:alert(1)',
      'https://avatars.example/app',
      'https://avatars.example/?x=1',
      'https://avatars.example#top',
      'https://user:pass@avatars.example',
    ]) {
      expect(() => publicUrl(bad), bad).toThrow(/PUBLIC_URL must be an http/);
    }
  });

  it('reads the origins models may come from: https in production, but for loopback', () => {
    const models = (value: string, env: Record<string, string> = {}) =>
      loadConfig({ JWT_SECRET: SECRET, MODEL_ORIGINS: value, ...env }).modelOrigins;
    expect(loadConfig({ JWT_SECRET: SECRET }).modelOrigins).toEqual([]);
    expect(models('https://Models.Example/  http://localhost:5173')).toEqual([
      'https://models.example',
      'http://localhost:5173',
    ]);
    for (const bad of ['models.example', 'https://models.example/glb', '*', "'self'", 'https:']) {
      expect(() => models(bad), bad).toThrow(/MODEL_ORIGINS must be origins/);
    }
    const production = {
      NODE_ENV: 'production',
      ADMIN_PASSWORD: 'twelve-chars',
      SMTP_URL: 'smtp://mail:25',
      PUBLIC_URL: 'https://avatars.example',
    };
    expect(() => models('http://models.example', production)).toThrow(
      /MODEL_ORIGINS must use https:\/\/ with NODE_ENV=production/,
    );
    expect(
      models('http://127.0.0.1:9000 http://localhost:9001 http://[::1]:9002', production),
    ).toEqual(['http://127.0.0.1:9000', 'http://localhost:9001', 'http://[::1]:9002']);
    expect(models('http://models.example')).toEqual(['http://models.example']);
  });

  it('reads the origins that may frame /embed', () => {
    expect(loadConfig({ JWT_SECRET: SECRET }).embedFrameAncestors).toEqual(['*']);
    const env = {
      JWT_SECRET: SECRET,
      EMBED_FRAME_ANCESTORS: 'https://a.example https://b.example',
    };
    expect(loadConfig(env).embedFrameAncestors).toEqual(['https://a.example', 'https://b.example']);
    expect(() => loadConfig({ ...env, EMBED_FRAME_ANCESTORS: "https://a.example 'self'" })).toThrow(
      /EMBED_FRAME_ANCESTORS/,
    );
  });

  it('keeps files on local disk unless S3_BUCKET names a bucket, and checks the S3 settings', () => {
    expect(loadConfig({ JWT_SECRET: SECRET }).s3).toBeUndefined();
    const s3 = {
      JWT_SECRET: SECRET,
      S3_ENDPOINT: 'http://ceph.internal:7480',
      S3_BUCKET: 'avatar-files',
      S3_ACCESS_KEY_ID: 'studio',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(s3).s3).toEqual({
      endpoint: 'http://ceph.internal:7480',
      bucket: 'avatar-files',
      region: 'us-east-1',
      accessKeyId: 'studio',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(
      loadConfig({
        JWT_SECRET: SECRET,
        S3_BUCKET: 'b.example',
        S3_REGION: 'eu-west-1',
        S3_FORCE_PATH_STYLE: 'false',
      }).s3,
    ).toMatchObject({ endpoint: undefined, region: 'eu-west-1', forcePathStyle: false });
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ JWT_SECRET: SECRET, ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ ...s3, S3_BUCKET: '' })).toEqual([
      'S3_BUCKET must be set to keep files in an S3 bucket (S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY set)',
    ]);
    expect(
      problems({
        ...s3,
        S3_BUCKET: 'Avatar_Files',
        S3_ENDPOINT: 'ceph.internal:7480',
        S3_SECRET_ACCESS_KEY: '',
        S3_FORCE_PATH_STYLE: 'yes',
      }),
    ).toEqual([
      'S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens (got "Avatar_Files")',
      'S3_ENDPOINT must be an http:// or https:// URL (got "ceph.internal:7480")',
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
      'S3_FORCE_PATH_STYLE must be true or false (got "yes")',
    ]);
  });

  it('generates the JWT secret once and keeps it in DATA_DIR', () => {
    const dir = join(tempDir('config-'), 'data');
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecretSource).toBe('generated');
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').trim()).toBe(first.jwtSecret);
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second).toMatchObject({ jwtSecret: first.jwtSecret, jwtSecretSource: 'file' });
  });

  it('refuses a damaged secret file', () => {
    const dir = tempDir('config-');
    writeFileSync(join(dir, 'jwt-secret'), 'short\n');
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(ConfigError);
  });
});
