import type { Config } from './config';
import type { Db } from './db';
import type { DevMailbox, MailTransport } from './mail';

/** Everything a route needs from the outside world; tests pass fakes (clock, mailbox, db). */
export interface Deps {
  db: Db;
  mail: MailTransport;
  config: Config;
  /** The clock every expiry, rate limit and token timestamp is measured with. */
  now: () => Date;
  /** Present in development: backs GET /dev/mailbox. */
  mailbox?: DevMailbox;
}
