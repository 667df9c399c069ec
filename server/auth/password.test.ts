import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashParams, hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it("uses OWASP's scrypt setting N=2^14, r=8, p=5 outside the test suite", () => {
    expect(hashParams('production')).toEqual({ N: 16384, r: 8, p: 5 });
    expect(hashParams('development')).toEqual({ N: 16384, r: 8, p: 5 });
  });

  it('verifies a production-cost hash: the parameters travel in the hash', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync('correct horse', salt, 32, { N: 16384, r: 8, p: 5 });
    const hash = `scrypt$16384$8$5$${salt.toString('base64')}$${key.toString('base64')}`;
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
    // The same salt and key read with other parameters do not match.
    expect(await verifyPassword('correct horse', hash.replace('$8$5$', '$8$1$'))).toBe(false);
  });

  it('hashes with a fresh salt each time', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', a)).toBe(true);
  });

  // A flood from one client must not fill libuv's four threads ahead of everyone's sign-in.
  it("runs one client's hashes one at a time, beside other clients' hashes", async () => {
    const hash = await hashPassword('stored');
    const done: string[] = [];
    const check = (name: string, turn: string) =>
      verifyPassword('guess', hash, turn).then(() => done.push(name));
    await Promise.all([
      ...[1, 2, 3, 4, 5, 6].map((n) => check(`flood ${n}`, 'client a')),
      check('owner', 'client b'),
    ]);
    // Without turns the owner's hash waits behind the flood's first four on the pool.
    expect(done.indexOf('owner')).toBeLessThan(2);
    expect(done.filter((name) => name.startsWith('flood'))).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `flood ${n}`),
    );
  });
});
