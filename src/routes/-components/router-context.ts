import type { SessionActor } from '../../machines/app-session';

/** What every route can reach through the router context. */
export interface RouterContext {
  session: SessionActor;
}
