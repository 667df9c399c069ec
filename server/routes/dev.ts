/**
 * /dev: development helpers. Never mounted when NODE_ENV=production.
 */
import { Hono } from 'hono';
import { z } from 'zod/mini';
import { emailSchema } from '../../contract/schemas';
import { readParam } from '../http/validate';
import type { DevMailbox } from '../mail';

/** Routes mounted at /dev: GET /dev/mailbox?to=EMAIL lists mails sent, newest first. */
export function devRoutes(mailbox: DevMailbox) {
  const app = new Hono();
  app.get('/mailbox', (c) => {
    const to = readParam(z.optional(emailSchema), c.req.query('to'), 'to');
    return c.json({ data: mailbox.list(to) });
  });
  return app;
}
