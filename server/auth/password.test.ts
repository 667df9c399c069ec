import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashParams, hashPassword, inTurn, verifyPassword } from './password';

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
    const started: string[] = [];
    const ends = new Map<string, () => void>();
    const work = (name: string) => () => {
      started.push(name);
      return new Promise<void>((resolve) => ends.set(name, resolve));
    };
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    const runs = [
      inTurn('client a', work('flood 1')),
      inTurn('client a', work('flood 2')),
      inTurn('client b', work('owner')),
    ];
    await settled();
    // The owner's starts beside the flood's first; the flood's second waits for its first.
    expect(started).toEqual(['flood 1', 'owner']);
    ends.get('owner')!();
    await settled();
    expect(started).toEqual(['flood 1', 'owner']);
    ends.get('flood 1')!();
    await settled();
    expect(started).toEqual(['flood 1', 'owner', 'flood 2']);
    ends.get('flood 2')!();
    await Promise.all(runs);
    // A failed one is settled too: the next of its turn runs.
    await expect(inTurn('client a', () => Promise.reject(new Error('bad hash')))).rejects.toThrow();
    expect(await inTurn('client a', () => Promise.resolve('next'))).toBe('next');
  });
});
