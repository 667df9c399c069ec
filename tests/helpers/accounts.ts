import { expect } from 'vitest';
import { ADMIN } from './app';
import { waitForMail } from './server';

/** One API call that must answer 200; answers its `data`. */
export async function api(
  url: string,
  path: string,
  token: string,
  method = 'GET',
  body?: unknown,
) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

/** An access token of `account` (the seeded admin by default). */
export const login = async (url: string, account = ADMIN) =>
  String((await api(url, '/v1/auth/login', '', 'POST', account)).token);

/** A second admin: signed up, verified, and made admin by the seeded one. */
export async function secondAdmin(url: string) {
  const email = `ops.${Date.now()}@example.com`;
  const password = 'second-admin-password';
  const response = await fetch(`${url}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const signedUp = ((await response.json()) as { data: { _id: string; token: string } }).data;
  const mail = await waitForMail(url, email, 'verify');
  // Proven from the sign-up's own session, so the password survives (server/README.md).
  await api(url, '/v1/users/verify', signedUp.token, 'POST', {
    verificationId: mail.verificationId,
    code: mail.code,
  });
  await api(url, `/private/v1/users/${signedUp._id}`, await login(url), 'PATCH', { role: 'admin' });
  return { email, password };
}
