import { expect } from 'vitest';
import { ADMIN } from './app';
import { waitForMail } from './server';

/** One API call that must answer 200 (with `token` as its bearer, if any); answers its `data`. */
export async function api(
  url: string,
  path: string,
  token: string,
  method = 'GET',
  body?: unknown,
) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

/** An access token of `account` (the seeded admin by default). */
export const login = async (url: string, account = ADMIN) =>
  String((await api(url, '/v1/auth/login', '', 'POST', account)).token);

/** One API call as the seeded admin (logged in for it) that must answer 200; answers `data`. */
export async function adminApi<T>(url: string, method: string, path: string, body?: unknown) {
  return (await api(url, path, await login(url), method, body)) as T;
}

let accounts = 0;

/**
 * A new account, signed up and verified, given `role` by the seeded admin when not `user`.
 * Verified from the sign-up's own session, so its password survives (docs/api.md).
 */
export async function verifiedAccount(
  url: string,
  role: 'user' | 'developer' | 'admin' = 'user',
  password = 'a-long-user-password',
) {
  accounts += 1;
  const email = `${role}.${accounts}.${Date.now()}@example.com`;
  const signedUp = await api(url, '/v1/auth/signup', '', 'POST', { email, password });
  const mail = await waitForMail(url, email, 'verify');
  await api(url, '/v1/users/verify', String(signedUp.token), 'POST', {
    verificationId: mail.verificationId,
    code: mail.code,
  });
  if (role !== 'user') {
    const path = `/private/v1/users/${String(signedUp._id)}`;
    await api(url, path, await login(url), 'PATCH', { role });
  }
  return { email, password, id: String(signedUp._id) };
}

/** A second admin: signed up, verified, and made admin by the seeded one. */
export const secondAdmin = (url: string) => verifiedAccount(url, 'admin', 'second-admin-password');
