/**
 * The server's one logger (pino): JSON lines on stdout, or a short readable line per entry in
 * development (LOG_FORMAT). Lines written while a request is served carry its request id
 * (withLogContext, server/http/request-log.ts); background work logs through a child with its
 * job's fields. Values under keys that name secrets are replaced, and e-mail addresses masked
 * wherever they stand, whoever logs them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Keys whose values never reach a line, at any depth (SECRET_IN_JSON, and pino's redact). */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'token',
  'accessToken',
  'refreshToken',
  'password',
  'currentPassword',
  'newPassword',
  'recoveryCode',
  'secret',
  'lastEventId',
];
/** One JSON string, its escapes included. */
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;
/**
 * A secret's value in a JSON line, at any depth: a string or a number under one of SECRET_KEYS,
 * and under `code` one shaped like a one-time or recovery code (6 digits, `xxxxx-xxxxx`), so an
 * error's code (`ECONNREFUSED`, PostgreSQL's `23505`) stays readable. Objects under those keys
 * are pino's redact's, at the top of an entry and one level down.
 */
const SECRET_IN_JSON = new RegExp(
  String.raw`("(?:${SECRET_KEYS.join('|')})":)(?:${JSON_STRING}|-?\d[\d.eE+-]*)` +
    String.raw`|("code":)"(?:\d{6}|[a-z\d]{5}-[a-z\d]{5})"`,
  'gi',
);
const redactSecrets = (line: string) =>
  line.replace(SECRET_IN_JSON, (_, key?: string, code?: string) => `${key ?? code}"[redacted]"`);

/** What may stand in an address's local part (a slash, an equals sign or a colon ends it). */
const LOCAL = String.raw`\p{L}\p{N}\p{M}.!#$%&'*+?^_{|}~-`;
const ADDRESS = String.raw`[${LOCAL}]+@(?:[\p{L}\p{N}\p{M}-]+\.)+\p{L}{2,}`;
/** One escape of a JSON string: `\n`, `\"`, `\\`, `\u001b`. */
const ESCAPE = String.raw`\\(?:u[\dA-Fa-f]{4}|[\s\S])`;
/**
 * An address in a JSON line. It starts where a run of local-part characters starts, so a long
 * run costs one pass, not one per character; an escape's letters (the `n` of `\n`) are not the
 * start of a run, so an address right after an escape is matched with the escape, which is kept.
 */
const EMAIL_IN_JSON = new RegExp(
  String.raw`(${ESCAPE})${ADDRESS}|(?<![\\${LOCAL}])${ADDRESS}`,
  'gu',
);

/**
 * `line` (a JSON line) with every e-mail address replaced by `[email]` (ASVS 7.1.2): in any
 * string at any depth (a message, an error's `rejected` list, a key), whoever logged it. A line
 * without `@`, nearly every one, costs one search; one with an address about 20 µs a kilobyte.
 */
function maskEmails(line: string): string {
  if (!line.includes('@')) return line;
  return line.replace(EMAIL_IN_JSON, (_, escape: string | undefined) => `${escape ?? ''}[email]`);
}

let masking = true;

const context = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `fn` with `fields` added to every line it logs (a request's id). */
export function withLogContext<T>(fields: Record<string, unknown>, fn: () => T): T {
  return context.run(fields, fn);
}

const stdout: DestinationStream = pino.destination({ dest: 1, sync: true });

const isLevel = (value: string | undefined): value is LogLevel =>
  (LOG_LEVELS as readonly string[]).includes(value ?? '');

// Until main.ts has the configuration (a bad one is itself logged), its defaults from the
// environment as they are.
const env = process.env;
let destination: DestinationStream =
  (env.LOG_FORMAT ?? ((env.NODE_ENV ?? 'development') === 'development' ? 'pretty' : 'json')) ===
  'pretty'
    ? prettyOn(stdout)
    : stdout;

/** The root logger: server/config.ts's LOG_LEVEL and LOG_FORMAT once main.ts configures it. */
export const log: Logger = pino(
  {
    level: isLevel(env.LOG_LEVEL) ? env.LOG_LEVEL : 'info',
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => context.getStore() ?? {},
    redact: {
      paths: SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
      censor: '[redacted]',
    },
  },
  {
    write: (line: string) => {
      const redacted = redactSecrets(line);
      destination.write(masking ? maskEmails(redacted) : redacted);
    },
  },
);

/**
 * Sets the level and the format of every line from now on (server/config.ts's settings), and
 * whether addresses are shown: only for the development mailbox, whose lines exist to be read.
 */
export function configureLog(settings: {
  level: LogLevel;
  format: LogFormat;
  emails?: 'masked' | 'shown';
}): void {
  log.level = settings.level;
  destination = settings.format === 'pretty' ? prettyOn(stdout) : stdout;
  masking = settings.emails !== 'shown';
}

/**
 * Sends the lines to `to` instead; answers a function that puts it back.
 * @internal What the tests read (server/test-log.ts).
 */
export function redirectLog(to: DestinationStream): () => void {
  const before = destination;
  destination = to;
  return () => {
    destination = before;
  };
}

const LEVEL_NAMES: Record<string, string> = {
  fatal: 'FATAL',
  error: 'ERROR',
  warn: 'WARN ',
  info: 'INFO ',
  debug: 'DEBUG',
  trace: 'TRACE',
};

/** One JSON line as a person reads it: time, level, message, the other fields, a stack. */
export function prettyLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { time, level, msg, err, ...fields } = entry;
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  const rest = Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  const stack =
    err && typeof err === 'object' && 'stack' in err && typeof err.stack === 'string'
      ? `\n${err.stack}`
      : '';
  const text = typeof msg === 'string' ? msg : '';
  return `${clock} ${LEVEL_NAMES[String(level)] ?? String(level)} ${text}${rest ? ` ${rest}` : ''}${stack}\n`;
}

function prettyOn(out: DestinationStream): DestinationStream {
  return { write: (line: string) => out.write(prettyLine(line)) };
}
