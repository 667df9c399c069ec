/**
 * Server configuration from environment variables. Every value is checked once at start, and all
 * problems are reported together so a misconfigured deployment fails fast with a readable message.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { emailSchema, PASSWORD_MIN_LENGTH, passwordSchema } from '../contract/schemas';
import { passwordProblem } from './auth/password-policy';
import type { EventStreamLimits } from './event-stream';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './log';

export const DEFAULT_ADMIN_EMAIL = 'admin@avatar.studio';
export const DEFAULT_ADMIN_PASSWORD = 'avatar-studio-admin';

export interface Config {
  port: number;
  host: string;
  /** Absolute path of the data folder (PGlite files, generated JWT secret). */
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  adminEmail: string;
  adminPassword: string;
  /** Which admin credentials came from defaults, so the start banner can warn about them. */
  adminDefaults: { email: boolean; password: boolean };
  /** Access-token lifetime in seconds. */
  accessTokenTtl: number;
  /** Absolute lifetime of a refresh-token family in seconds. */
  refreshTokenTtl: number;
  jwtSecret: string;
  jwtSecretSource: 'env' | 'file' | 'generated';
  /** Keys derived from the secret, one per use, so no key serves two purposes. */
  keys: ServerKeys;
  /**
   * Behind a reverse proxy: take the client address from the last `X-Forwarded-For` entry (the
   * one the proxy added) rather than the socket. Off by default: a client could forge it.
   */
  trustProxy: boolean;
  /**
   * Admins must sign in with a second factor (REQUIRE_ADMIN_2FA): until they enrol one, their
   * tokens carry a guest's rules (server/auth/second-factor.ts). On by default in production.
   */
  requireAdminSecondFactor: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  nodeEnv: string;
  /**
   * The address users reach the app at (an origin, no trailing slash): absolute addresses the
   * server hands out (the application export) start with it, never with the request's Host.
   */
  publicUrl: string;
  /**
   * Origins (besides the app's own) the viewer may load models, environments and images from:
   * the page policy's connect-src, img-src and media-src. Development adds loopback over http.
   */
  modelOrigins: string[];
  /** Origins whose pages may frame `/embed` (`*`: any); every other page may not be framed. */
  embedFrameAncestors: string[];
  /** Absolute path of the built SPA. */
  staticDir: string;
  /** Asset services: an icon renderer and a texture predictor; unset answers 501. */
  iconRendererUrl: string | undefined;
  texturePredictorUrl: string | undefined;
  /** The live event stream, GET /v1/events (docs/api.md "Live events"). */
  events: EventStreamLimits;
  /** Days a deleted record stays in the Trash before the sweeper deletes it for ever. */
  trashRetentionDays: number;
  /** Uploaded files in an S3 bucket (S3_BUCKET set), or undefined for DATA_DIR/files. */
  s3: S3Settings | undefined;
  /**
   * GET /v1/openapi.json and /v1/docs (API_DOCS): off by default in production, where the map
   * of every route would serve only a stranger probing the API; on elsewhere.
   */
  apiDocs: boolean;
  /** LOG_LEVEL and LOG_FORMAT (server/log.ts): readable lines by default in development. */
  log: { level: LogLevel; format: LogFormat };
  /** Bearer token of GET /metrics (METRICS_TOKEN); unset, the route does not exist. */
  metricsToken: string | undefined;
  /**
   * Requests a second one client may keep sending, with a burst of four seconds' worth
   * (CLIENT_REQUEST_RATE, server/http/request-budget.ts); 0 is off. On in production only.
   */
  clientRequestRate: number;
  /** How long a stopping server lets its requests in progress finish (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  /**
   * How long a stopping server answers /readyz 503 while it serves as usual, before its port
   * closes (SHUTDOWN_DEREGISTER_MS): the time a proxy's health checks take to stop sending it
   * requests, so none reaches a port that is closing. 10 s in production, 0 elsewhere.
   */
  shutdownDeregisterMs: number;
}

/** An S3-compatible object store (server/s3-storage.ts). */
export interface S3Settings {
  /** The store's address (Ceph RGW, MinIO…); undefined for AWS S3 itself. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Both or neither; neither uses the SDK's default credentials (environment, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** Bucket in the path (`endpoint/bucket/key`) rather than in the host name. */
  forcePathStyle: boolean;
}

export interface ServerKeys {
  /** Signs and verifies access tokens (HS256). */
  tokenSigning: string;
  /** Keys the HMAC of stored one-time codes. */
  codeHashing: string;
  /** Keys the HMAC that names a refresh token's successor (see rotateRefreshToken). */
  refreshSuccessor: string;
  /** Encrypts the stored TOTP secrets (AES-256-GCM). */
  secondFactorSecrets: string;
  /** Signs the "second factor pending" challenge a sign-in answers instead of a session. */
  secondFactorChallenge: string;
  /** Keys the HMAC of stored recovery codes. */
  recoveryCodeHashing: string;
  /** Keys the HMAC that fingerprints a request kept under an Idempotency-Key. */
  idempotencyFingerprint: string;
  /** Signs passkey ceremonies and derives the second step's WebAuthn challenge. */
  passkeyCeremony: string;
}

/** Derives one key per purpose from the server secret (HKDF-SHA256, the purpose as info). */
export function deriveKeys(secret: string): ServerKeys {
  const derive = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', secret, 'avatar-studio', purpose, 32)).toString('base64url');
  return {
    tokenSigning: derive('access-token-signing'),
    codeHashing: derive('one-time-code-hmac'),
    refreshSuccessor: derive('refresh-token-successor'),
    secondFactorSecrets: derive('second-factor-secret-encryption'),
    secondFactorChallenge: derive('second-factor-challenge-signing'),
    recoveryCodeHashing: derive('recovery-code-hmac'),
    idempotencyFingerprint: derive('idempotency-request-fingerprint'),
    passkeyCeremony: derive('passkey-ceremony'),
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** `value` as an origin (`https://app.example`, `http://localhost:8080`), or undefined. */
function parseOrigin(value: string): string | undefined {
  // Scheme and host[:port] only: no credentials, path, query or fragment.
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(value) || !URL.canParse(value)) return undefined;
  return new URL(value).origin;
}

/** True for an origin on this machine (`localhost`, `127.x.x.x`, `[::1]`). */
function isLoopback(origin: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Builds the typed configuration from `env`, throwing a ConfigError that lists every bad value. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const str = (name: string) => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  const port = int('PORT', 8080, 1, 65535);
  const accessTokenTtl = int('ACCESS_TOKEN_TTL', 900, 1, 24 * 3600);
  const refreshTokenTtl = int('REFRESH_TOKEN_TTL', 30 * 24 * 3600, 1, 365 * 24 * 3600);
  const trashRetentionDays = int('TRASH_RETENTION_DAYS', 30, 1, 3650);
  const shutdownTimeoutMs = int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 3600 * 1000);
  const events: EventStreamLimits = {
    heartbeatMs: int('EVENTS_HEARTBEAT_MS', 1_000, 10, 3600 * 1000),
    replayLimit: int('EVENTS_REPLAY_LIMIT', 1000, 1, 100_000),
    queueBytes: int('EVENTS_QUEUE_BYTES', 1024 * 1024, 1024, 256 * 1024 * 1024),
  };

  const adminEmail = str('ADMIN_EMAIL')?.toLowerCase() ?? DEFAULT_ADMIN_EMAIL;
  if (!emailSchema.safeParse(adminEmail).success) {
    problems.push(`ADMIN_EMAIL must be an e-mail address (got "${adminEmail}")`);
  }
  const adminPassword = str('ADMIN_PASSWORD') ?? DEFAULT_ADMIN_PASSWORD;
  const nodeEnv = str('NODE_ENV') ?? 'development';
  const production = nodeEnv === 'production';
  // HAProxy's default health check (every 2 s, out after 3 failures) takes an instance out of
  // rotation within 8 s, an AWS target group's quickest (every 5 s, 2 failures) within 10 s.
  const shutdownDeregisterMs = int('SHUTDOWN_DEREGISTER_MS', production ? 10_000 : 0, 0, 600_000);
  const adminProblem = passwordProblem(adminPassword, adminEmail);
  const lengthProblem = passwordSchema.safeParse(adminPassword).error?.issues[0]?.message;
  if (lengthProblem) {
    problems.push(`ADMIN_PASSWORD ${lengthProblem}`);
  } else if (production && (adminPassword === DEFAULT_ADMIN_PASSWORD || adminProblem)) {
    problems.push(
      `ADMIN_PASSWORD must be set to a password of your own, at least ${PASSWORD_MIN_LENGTH} ` +
        'characters long and not a common one, with NODE_ENV=production (the default one is ' +
        `published in the README)${adminProblem ? `: it ${adminProblem}` : ''}`,
    );
  }

  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const smtpUrl = str('SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) {
    problems.push('SMTP_URL must start with smtp:// or smtps://');
  }
  // Without SMTP, mail goes to the log, codes included: fine on a laptop, not in production.
  if (production && smtpUrl === undefined) {
    problems.push('SMTP_URL must be set with NODE_ENV=production (codes are sent by mail)');
  }
  const publicUrlRaw = str('PUBLIC_URL');
  const publicUrl =
    publicUrlRaw === undefined ? `http://localhost:${port}` : parseOrigin(publicUrlRaw);
  if (publicUrl === undefined) {
    problems.push(
      `PUBLIC_URL must be an http:// or https:// address without a path, like https://avatars.example (got "${publicUrlRaw}")`,
    );
  }
  // Behind a proxy or on another port the request's Host is no guide, and a client can forge it.
  if (production && publicUrlRaw === undefined) {
    problems.push(
      'PUBLIC_URL must be set with NODE_ENV=production (the address users reach the app at)',
    );
  }
  const modelOrigins = (str('MODEL_ORIGINS')?.split(/\s+/) ?? []).flatMap((value) => {
    const origin = parseOrigin(value);
    if (origin === undefined) {
      problems.push(`MODEL_ORIGINS must be origins like https://models.example (got "${value}")`);
      return [];
    }
    // Over http a network attacker can swap the model; only loopback is spared in production.
    if (production && origin.startsWith('http:') && !isLoopback(origin)) {
      problems.push(`MODEL_ORIGINS must use https:// with NODE_ENV=production (got "${value}")`);
    }
    return [origin];
  });
  const embedAncestors = (str('EMBED_FRAME_ANCESTORS') ?? '*').split(/\s+/);
  for (const origin of embedAncestors) {
    if (origin !== '*' && !/^https?:\/\/[^/\s;,]+$/.test(origin)) {
      problems.push(
        `EMBED_FRAME_ANCESTORS must be * or origins like https://app.example (got "${origin}")`,
      );
    }
  }

  const serviceUrl = (name: string) => {
    const value = str(name);
    if (
      value !== undefined &&
      !(URL.canParse(value) && /^https?:$/.test(new URL(value).protocol))
    ) {
      problems.push(`${name} must be an http:// or https:// URL (got "${value}")`);
    }
    return value;
  };
  const iconRendererUrl = serviceUrl('ICON_RENDERER_URL');
  const texturePredictorUrl = serviceUrl('TEXTURE_PREDICTOR_URL');

  const envSecret = str('JWT_SECRET');
  if (envSecret !== undefined && envSecret.length < 32) {
    problems.push('JWT_SECRET must be at least 32 characters long');
  }

  const trustProxyRaw = str('TRUST_PROXY')?.toLowerCase() ?? 'false';
  if (!['true', 'false'].includes(trustProxyRaw)) {
    problems.push(`TRUST_PROXY must be true or false (got "${trustProxyRaw}")`);
  }

  const requireAdmin2faRaw = str('REQUIRE_ADMIN_2FA')?.toLowerCase() ?? String(production);
  if (!['true', 'false'].includes(requireAdmin2faRaw)) {
    problems.push(`REQUIRE_ADMIN_2FA must be true or false (got "${requireAdmin2faRaw}")`);
  }

  const s3 = loadS3Settings(str, problems);

  const apiDocsRaw = str('API_DOCS')?.toLowerCase() ?? (production ? 'off' : 'on');
  if (!['on', 'off'].includes(apiDocsRaw)) {
    problems.push(`API_DOCS must be on or off (got "${apiDocsRaw}")`);
  }

  const logLevel = str('LOG_LEVEL')?.toLowerCase() ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }
  const logFormat =
    str('LOG_FORMAT')?.toLowerCase() ?? (nodeEnv === 'development' ? 'pretty' : 'json');
  if (!(LOG_FORMATS as readonly string[]).includes(logFormat)) {
    problems.push(`LOG_FORMAT must be json or pretty (got "${logFormat}")`);
  }

  // A cold page load of the asset list sends about 70 requests in its first second and 140 in
  // five (chunks, decoders, thumbnails, API calls): 50 a second with 200 at once is past what an
  // admin sends, and the burst is what a flood gets through before it is held back. Off outside production, where tests and benches send many requests from loopback.
  const clientRequestRate = int('CLIENT_REQUEST_RATE', production ? 50 : 0, 0, 100_000);
  const metricsToken = str('METRICS_TOKEN');
  if (metricsToken !== undefined && !/^[\x21-\x7e]{32,}$/.test(metricsToken)) {
    problems.push('METRICS_TOKEN must be at least 32 printable characters without spaces');
  }

  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = resolve(str('DATA_DIR') ?? '.data');
  const secret = envSecret
    ? { jwtSecret: envSecret, jwtSecretSource: 'env' as const }
    : loadOrCreateSecret(dataDir);

  return {
    port,
    host: str('HOST') ?? '127.0.0.1',
    dataDir,
    databaseUrl,
    adminEmail,
    adminPassword,
    adminDefaults: {
      email: str('ADMIN_EMAIL') === undefined,
      password: str('ADMIN_PASSWORD') === undefined,
    },
    accessTokenTtl,
    refreshTokenTtl,
    ...secret,
    keys: deriveKeys(secret.jwtSecret),
    trustProxy: trustProxyRaw === 'true',
    apiDocs: apiDocsRaw === 'on',
    log: { level: logLevel as LogLevel, format: logFormat as LogFormat },
    metricsToken,
    clientRequestRate,
    requireAdminSecondFactor: requireAdmin2faRaw === 'true',
    smtpUrl,
    mailFrom: str('MAIL_FROM') ?? 'Avatar Studio <no-reply@avatar.studio>',
    nodeEnv,
    publicUrl: publicUrl ?? '',
    modelOrigins,
    embedFrameAncestors: embedAncestors,
    staticDir: resolve(str('STATIC_DIR') ?? 'dist'),
    iconRendererUrl,
    texturePredictorUrl,
    events,
    trashRetentionDays,
    shutdownTimeoutMs,
    shutdownDeregisterMs,
    s3,
  };
}

/** The S3_* settings, or undefined when none is set (files stay on local disk). */
function loadS3Settings(
  str: (name: string) => string | undefined,
  problems: string[],
): S3Settings | undefined {
  const names = [
    'S3_ENDPOINT',
    'S3_BUCKET',
    'S3_REGION',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_FORCE_PATH_STYLE',
  ];
  const set = names.filter((name) => str(name) !== undefined);
  if (set.length === 0) return undefined;
  const bucket = str('S3_BUCKET');
  if (bucket === undefined) {
    problems.push(`S3_BUCKET must be set to keep files in an S3 bucket (${set.join(', ')} set)`);
  } else if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    problems.push(
      `S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens (got "${bucket}")`,
    );
  }
  const endpoint = str('S3_ENDPOINT');
  if (
    endpoint !== undefined &&
    !(URL.canParse(endpoint) && /^https?:$/.test(new URL(endpoint).protocol))
  ) {
    problems.push(`S3_ENDPOINT must be an http:// or https:// URL (got "${endpoint}")`);
  }
  const accessKeyId = str('S3_ACCESS_KEY_ID');
  const secretAccessKey = str('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  const pathStyle = str('S3_FORCE_PATH_STYLE')?.toLowerCase() ?? 'true';
  if (!['true', 'false'].includes(pathStyle)) {
    problems.push(`S3_FORCE_PATH_STYLE must be true or false (got "${pathStyle}")`);
  }
  return {
    endpoint,
    bucket: bucket ?? '',
    region: str('S3_REGION') ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: pathStyle !== 'false',
  };
}

/** The secret is generated once and kept in the data folder so a restart keeps sessions valid. */
function loadOrCreateSecret(dataDir: string): Pick<Config, 'jwtSecret' | 'jwtSecretSource'> {
  const file = join(dataDir, 'jwt-secret');
  const stored = readSecret(file);
  if (stored !== undefined) return { jwtSecret: stored, jwtSecretSource: 'file' };
  const jwtSecret = randomBytes(48).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  try {
    // Exclusive create: when two servers start on one data folder, the first secret wins.
    writeFileSync(file, `${jwtSecret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const winner =
      (error as NodeJS.ErrnoException).code === 'EEXIST' ? readSecret(file) : undefined;
    if (winner === undefined) throw error;
    return { jwtSecret: winner, jwtSecretSource: 'file' };
  }
  return { jwtSecret, jwtSecretSource: 'generated' };
}

function readSecret(file: string): string | undefined {
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length < 32) throw new ConfigError([`${file} must hold at least 32 characters`]);
    return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
