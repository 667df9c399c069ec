import type { Config } from './config';
import type { Db } from './db';
import type { SessionCheck } from './auth/session-check';
import type { EventBus } from './event-bus';
import type { DevMailbox, MailTransport } from './mail';
import type { Storage } from './storage';

/** Everything a route needs from the outside world; tests pass fakes (clock, mailbox, db). */
export interface Deps {
  db: Db;
  mail: MailTransport;
  /** Uploaded files (local disk under DATA_DIR/files by default). */
  storage: Storage;
  config: Config;
  /** The clock every expiry, rate limit and token timestamp is measured with. */
  now: () => Date;
  /** Committed asset events as they happen, from every server on the database (GET /v1/events). */
  events: EventBus;
  /** Whether the session an access token names is live, cached per server (auth/middleware.ts). */
  sessions: SessionCheck;
  /** Present in development: backs GET /dev/mailbox. */
  mailbox?: DevMailbox;
  /**
   * Aborted when the server is told to stop (server/main.ts): GET /readyz answers 503 from then
   * on, so a proxy takes it out of rotation, while it serves as usual until `stopping`.
   */
  leaving?: AbortSignal;
  /**
   * Aborted when the server starts to stop: no new event stream opens, while the requests in
   * progress finish. `leaving` is aborted too by then.
   */
  stopping?: AbortSignal;
}
