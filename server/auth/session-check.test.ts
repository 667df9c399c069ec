/**
 * The session cache's rules on a fake database: cached while listening, dropped by the
 * notifications that name it, never trusted while the listening connection is lost.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../db';
import { SESSIONS_CHANNEL, announceSessionChange, createSessionCheck } from './session-check';

function fakeDb() {
  const state = { revoked: false, role: 'user' };
  let reads = 0;
  let onNotify: ((payload: string | undefined) => void) | undefined;
  let onLost: (() => void) | undefined;
  /** When set, the next read waits for it (to let a notification overtake the read). */
  let gate: Promise<void> | undefined;
  const db = {
    query: async () => {
      reads += 1;
      const row = {
        user_id: 'u1',
        role: state.role,
        expires_at: new Date('2100-01-01'),
        revoked: state.revoked,
        disabled: false,
      };
      const wait = gate;
      gate = undefined;
      await wait;
      return { rows: [row] };
    },
    listen: (channel: string, notify: typeof onNotify, lost: typeof onLost) => {
      expect(channel).toBe(SESSIONS_CHANNEL);
      onNotify = notify;
      onLost = lost;
      return Promise.resolve(() => Promise.resolve());
    },
  } as unknown as Db;
  return {
    db,
    state,
    reads: () => reads,
    notify: (payload: string | undefined) => onNotify!(payload),
    lose: () => onLost!(),
    hold: () => {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return release;
    },
  };
}

describe('the session check', () => {
  it('reads a session once while listening, again after a notification naming it or its user', async () => {
    const fake = fakeDb();
    const check = createSessionCheck(fake.db);
    await check.lookup('s1'); // starts listening; not yet trusted
    await check.lookup('s1');
    const before = fake.reads();
    await check.lookup('s1');
    await check.lookup('s1');
    expect(fake.reads()).toBe(before);
    fake.state.revoked = true;
    fake.notify('s:s1');
    expect(await check.lookup('s1')).toMatchObject({ revoked: true });
    fake.state.role = 'developer';
    fake.notify('u:u1');
    expect(await check.lookup('s1')).toMatchObject({ role: 'developer' });
    fake.notify('s:other');
    fake.notify('u:other');
    const reads = fake.reads();
    await check.lookup('s1');
    expect(fake.reads()).toBe(reads);
    await check.close();
  });

  it('reads the database on every lookup while the listening connection is lost, until it is back', async () => {
    const fake = fakeDb();
    const check = createSessionCheck(fake.db);
    await check.lookup('s1');
    await check.lookup('s1');
    fake.lose();
    fake.state.revoked = true; // its notification is missed
    expect(await check.lookup('s1')).toMatchObject({ revoked: true });
    const lost = fake.reads();
    await check.lookup('s1');
    await check.lookup('s1');
    expect(fake.reads()).toBe(lost + 2);
    fake.notify(undefined); // back: caching again
    await check.lookup('s1');
    const back = fake.reads();
    await check.lookup('s1');
    expect(fake.reads()).toBe(back);
    await check.close();
  });

  it('does not cache a read that a notification overtook', async () => {
    const fake = fakeDb();
    const check = createSessionCheck(fake.db);
    await check.lookup('s1');
    const release = fake.hold();
    const stale = check.lookup('s1'); // reads "live"…
    fake.state.revoked = true;
    fake.notify('s:s1'); // …while the revocation commits
    release();
    expect(await stale).toMatchObject({ revoked: false });
    expect(await check.lookup('s1')).toMatchObject({ revoked: true });
    await check.close();
  });

  it('caches nothing a change announced by this process touches until its notification arrives', async () => {
    const fake = fakeDb();
    const check = createSessionCheck(fake.db);
    await check.lookup('s1');
    await check.lookup('s1');
    fake.state.revoked = true;
    announceSessionChange(fake.db, 'u:u1'); // committed, its notification still on the way
    const reads = fake.reads();
    expect(await check.lookup('s1')).toMatchObject({ revoked: true });
    await check.lookup('s1');
    expect(fake.reads()).toBe(reads + 2);
    fake.notify('u:u1');
    await check.lookup('s1');
    await check.lookup('s1');
    expect(fake.reads()).toBe(reads + 3);
    await check.close();
    // A closed check hears no more announcements.
    announceSessionChange(fake.db, 's:s1');
  });
});
