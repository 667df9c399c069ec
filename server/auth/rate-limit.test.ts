import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db';
import { countingDb, createTestDb, type TestDb } from '../test-db';
import { LIMITS, REFUSAL_MEMORY_MS, takeAttempt, type LimitCheck } from './rate-limit';

let testDb: TestDb;
/** The test database, counting what is sent to it. */
let db: Db;
/** Statements and transactions sent to the database so far. */
let sent: () => number;

beforeAll(async () => {
  testDb = await createTestDb();
  ({ db, sent } = countingDb(testDb.db));
});
afterAll(() => testDb.close());

const at = (start: number, ms: number) => new Date(start + ms);

/** Whether the attempt is taken (true) or refused with 429 (false), and what it sent. */
async function attempt(checks: LimitCheck[], now: Date) {
  const before = sent();
  try {
    await takeAttempt(db, checks, now);
    return { taken: true, sent: sent() - before };
  } catch (error) {
    expect(error).toMatchObject({ status: 429 });
    return { taken: false, sent: sent() - before };
  }
}

describe('a client looping on refused attempts', () => {
  it('is refused again without a database round trip, for a while, and its limit still ends', async () => {
    const start = Date.parse('2026-05-01T10:00:00Z');
    const mail = [{ key: 'mail:203.0.113.7', limit: LIMITS.mailPerClient }];
    for (let i = 0; i < LIMITS.mailPerClient.max; i += 1) {
      expect((await attempt(mail, at(start, i))).taken).toBe(true);
    }
    const first = await attempt(mail, at(start, 1000));
    expect(first).toMatchObject({ taken: false });
    expect(first.sent).toBeGreaterThan(0);
    // The flood that follows costs the database nothing.
    for (let i = 0; i < 50; i += 1) {
      expect(await attempt(mail, at(start, 2000 + i))).toEqual({ taken: false, sent: 0 });
    }
    // Another client is not refused by it.
    const other = [{ key: 'mail:198.51.100.9', limit: LIMITS.mailPerClient }];
    expect(await attempt(other, at(start, 3000))).toMatchObject({ taken: true });
    // Past the memory the database is asked again, and still refuses within the hour.
    const later = await attempt(mail, at(start, 1000 + REFUSAL_MEMORY_MS));
    expect(later).toMatchObject({ taken: false });
    expect(later.sent).toBeGreaterThan(0);
    // The hour over, the client is let through.
    expect(await attempt(mail, at(start, LIMITS.mailPerClient.windowMs + 50))).toMatchObject({
      taken: true,
    });
  });

  it('is not refused from memory past the end of its back-off', async () => {
    const start = Date.parse('2026-05-02T10:00:00Z');
    const backoff = LIMITS.passwordPerAddressClient.backoff!;
    const checks = [
      { key: 'password:owner@example.com:203.0.113.8', limit: LIMITS.passwordPerAddressClient },
    ];
    for (let i = 0; i < backoff.free; i += 1) {
      expect((await attempt(checks, at(start, i))).taken).toBe(true);
    }
    // A minute's back-off after the last free attempt: refused 5 s before it ends.
    const last = start + backoff.free - 1;
    expect(await attempt(checks, at(last, backoff.firstDelayMs - 5000))).toMatchObject({
      taken: false,
    });
    expect(await attempt(checks, at(last, backoff.firstDelayMs - 1))).toEqual({
      taken: false,
      sent: 0,
    });
    expect(await attempt(checks, at(last, backoff.firstDelayMs + 1))).toMatchObject({
      taken: true,
    });
  });
});
