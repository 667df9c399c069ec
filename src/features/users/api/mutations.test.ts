/**
 * A user's role change: the cache takes the answer; a conflict reads the user again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setUserRole } from './mutations';
import { queryClient } from '../../../api/query';
import { configureSession } from '../../../api/session-bridge';
import { failure, serveApi, staleness, signedInSession } from '../../../api/testing';

const NOW = '2026-01-01T00:00:00.000Z';

beforeEach(() => {
  configureSession(signedInSession());
});

afterEach(() => {
  configureSession(null);
  queryClient.clear();
});

describe('setUserRole', () => {
  const USER = {
    id: 'u2',
    email: 'dev@avatar.studio',
    role: 'developer',
    verifiedAt: NOW,
    createdAt: NOW,
    version: 2,
    status: 'active',
    disabledAt: null,
    lastSignInAt: null,
  };

  it('a role someone else changed meanwhile is refused; the user is read again', async () => {
    queryClient.setQueryData(['users', 'u2'], USER);
    const server = serveApi({
      'PATCH private/v1/users/u2': [
        409,
        { status: 409, code: 'EDIT_CONFLICT', message: 'Changed since', conflicts: [] },
      ],
    });
    const error = await failure(setUserRole('u2', 'admin', 2));
    expect(server.sent()).toEqual(['PATCH private/v1/users/u2 {"role":"admin"}']);
    expect(error).toMatchObject({ status: 409, code: 'EDIT_CONFLICT' });
    expect(staleness(['users', 'u2'])).toEqual([true]);
  });

  it('another failure leaves the user as it was', async () => {
    queryClient.setQueryData(['users', 'u2'], USER);
    serveApi({
      'PATCH private/v1/users/u2': [403, { status: 403, code: 'FORBIDDEN', message: 'No' }],
    });
    expect(await failure(setUserRole('u2', 'admin', 2))).toMatchObject({ code: 'FORBIDDEN' });
    expect(staleness(['users', 'u2'])).toEqual([false]);
  });
});
