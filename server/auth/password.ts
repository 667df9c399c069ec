/**
 * Password hashing with Node's scrypt. The hash string carries its own parameters
 * (`scrypt$N$r$p$salt$hash`), so the cost can be raised later without breaking old hashes.
 * Hashes run on libuv's thread pool (4 threads), which also bounds the memory they take. A
 * caller names whose turn a hash is (the client's address): one client's hashes run one at a
 * time, so a flood of guesses or sign-ups from one client holds one thread, never the pool that
 * every other client's sign-in waits for.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

interface HashParams {
  N: number;
  r: number;
  p: number;
}

/**
 * OWASP's scrypt recommendation (Password Storage Cheat Sheet): N=2^14, r=8, p=5, the variant
 * of its equivalent settings that needs the least memory (16 MiB a hash, about 160 ms here).
 * The test suite hashes hundreds of passwords, so under NODE_ENV=test a fifth of the work.
 */
export function hashParams(nodeEnv = process.env.NODE_ENV): HashParams {
  return nodeEnv === 'test' ? { N: 16384, r: 8, p: 1 } : { N: 16384, r: 8, p: 5 };
}
const PARAMS = hashParams();
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** The last hash each client has waiting or running; a client's next one starts after it. */
const turns = new Map<string, Promise<unknown>>();

/**
 * Runs `work` after every earlier work of the same turn has settled (at once without one).
 * @internal exported for its test
 */
export function inTurn<T>(turn: string | undefined, work: () => Promise<T>): Promise<T> {
  if (turn === undefined) return work();
  const run = (turns.get(turn) ?? Promise.resolve()).then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  turns.set(turn, settled);
  void settled.then(() => {
    if (turns.get(turn) === settled) turns.delete(turn);
  });
  return run;
}

/** Hashes a password with a fresh random salt, in `turn`'s turn (see above). */
export async function hashPassword(password: string, turn?: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await inTurn(turn, () => derive(password, salt, PARAMS));
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

/**
 * Checks a password against a stored hash in constant time, in `turn`'s turn (see above);
 * malformed hashes never match.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  turn?: string,
): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || salt === undefined || hash === undefined) {
    return false;
  }
  const expected = Buffer.from(hash, 'base64');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
  const actual = await inTurn(turn, () => derive(password, Buffer.from(salt, 'base64'), options));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A real hash of a random password, checked against when a user does not exist, so an
 * unknown e-mail takes as long to reject as a wrong password. */
let decoyHash: Promise<string> | undefined;
export function getDecoyHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return decoyHash;
}
