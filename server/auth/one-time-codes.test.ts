/**
 * A client looping on code guesses that cannot be right (its back-off refuses them, or the
 * codes' budgets for its side are spent) costs the database nothing, and a new code is guessed
 * at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db';
import { countingDb, createTestDb, type TestDb } from '../test-db';
import {
  consumeCode,
  GUESSES_PER_CODE,
  issueCode,
  SPENT_MEMORY_MS,
  type CodePurpose,
} from './one-time-codes';
import { LIMITS } from './rate-limit';

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

const SECRET = 'one-time-codes-test-secret';
const purpose: CodePurpose = 'login';

function issue(email: string, client: string, now: Date) {
  return issueCode(db, { email, userId: null, purpose, client, now, secret: SECRET });
}

/** The guess's answer (`ok`, a failure's reason, or the refusal's status) and what it sent. */
async function guess(email: string, code: string, client: string, now: Date) {
  const before = sent();
  try {
    const result = await consumeCode(db, {
      lookup: { email },
      purpose,
      code,
      client,
      now,
      secret: SECRET,
    });
    return { answer: result.ok ? 'ok' : result.reason, sent: sent() - before };
  } catch (error) {
    return { answer: (error as { status: number }).status, sent: sent() - before };
  }
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('code guesses that cannot be right', () => {
  it('are answered from memory once the codes take no more of a client’s guesses, until a new code', async () => {
    const start = Date.parse('2026-06-01T10:00:00Z');
    const at = (ms: number) => new Date(start + ms);
    const email = 'owner@example.com';
    const owner = '198.51.100.1';
    const stranger = '203.0.113.7';
    const { code } = await issue(email, owner, at(0));
    for (let i = 0; i < GUESSES_PER_CODE; i += 1) {
      expect((await guess(email, wrong(code), stranger, at(1 + i))).answer).toBe('invalid');
    }
    // The code's budget for other clients is spent: the right code is not even compared.
    const refused = await guess(email, code, stranger, at(100));
    expect(refused.answer).toBe('invalid');
    expect(refused.sent).toBeGreaterThan(0);
    for (let i = 0; i < 20; i += 1) {
      expect(await guess(email, wrong(code), stranger, at(200 + i))).toEqual({
        answer: 'invalid',
        sent: 0,
      });
    }
    // The owner, who asked for it, still signs in with it.
    expect((await guess(email, code, owner, at(300))).answer).toBe('ok');

    // A new code issued on this server is guessed at once, by the stranger too.
    const fresh = await issue(email, stranger, at(400));
    const right = await guess(email, fresh.code, stranger, at(500));
    expect(right.answer).toBe('ok');
    expect(right.sent).toBeGreaterThan(0);
  });

  it('are read again after SPENT_MEMORY_MS', async () => {
    const start = Date.parse('2026-06-02T10:00:00Z');
    const at = (ms: number) => new Date(start + ms);
    const email = 'someone@example.com';
    const stranger = '203.0.113.8';
    const { code } = await issue(email, '198.51.100.3', at(0));
    for (let i = 0; i <= GUESSES_PER_CODE; i += 1) await guess(email, wrong(code), stranger, at(i));
    expect(await guess(email, code, stranger, at(100))).toEqual({ answer: 'invalid', sent: 0 });
    const later = await guess(email, code, stranger, at(SPENT_MEMORY_MS + 10));
    expect(later.answer).toBe('invalid');
    expect(later.sent).toBeGreaterThan(0);
  });

  it('refused by the client’s back-off, read no codes', async () => {
    const start = Date.parse('2026-06-03T10:00:00Z');
    const at = (ms: number) => new Date(start + ms);
    const client = '203.0.113.9';
    const free = LIMITS.codeGuessesPerClient.backoff!.free;
    // Guesses at addresses of their own, each with a code of its own.
    for (let i = 0; i <= free; i += 1) {
      const email = `target${i}@example.com`;
      const { code } = await issue(email, '198.51.100.2', at(i * 10));
      const answer = (await guess(email, wrong(code), client, at(i * 10 + 1))).answer;
      expect(answer).toBe(i < free ? 'invalid' : 429);
    }
    const email = 'another@example.com';
    await issue(email, '198.51.100.2', at(1000));
    expect(await guess(email, '000000', client, at(1001))).toEqual({ answer: 429, sent: 0 });
  });
});
