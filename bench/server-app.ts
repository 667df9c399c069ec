/** The reference server as the server benches drive it: one admin signed in, in process. */
import { authResultSchema } from '../contract/schemas';
import { createApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { loadConfig } from '../server/config';
import type { Db } from '../server/db';
import { createDevMailbox } from '../server/mail';
import type { Storage } from '../server/storage';
import { createUser } from '../server/users';

/** An app on `db` (migrated) with a bench admin, that admin's access token, and the config. */
export async function signedInBenchApp(
  db: Db,
  {
    dataDir = '/nonexistent/avatar-studio-bench',
    storage,
  }: { dataDir?: string; storage?: Storage } = {},
) {
  const config = loadConfig({
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256!',
    DATA_DIR: dataDir,
    STATIC_DIR: '/nonexistent/avatar-studio-bench-dist',
    NODE_ENV: 'test',
    // Clients of a bench may name their address, as behind a proxy.
    TRUST_PROXY: 'true',
  });
  const email = 'bench@example.com';
  const password = 'bench-password';
  await createUser(db, {
    email,
    passwordHash: await hashPassword(password),
    role: 'admin',
    verifiedAt: new Date(),
    now: new Date(),
  });
  const app = createApp({ db, config, mail: createDevMailbox(), ...(storage ? { storage } : {}) });
  const login = await app.request('/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { token } = authResultSchema.parse(((await login.json()) as { data: unknown }).data);
  return { app, token, config };
}
