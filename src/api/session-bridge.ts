/**
 * The seam through which src/machines plugs the session into the HTTP layer. It has no
 * dependencies, so the app can wire the session at start-up without loading ky and the
 * request code until the first call.
 */
import type { RefreshResult } from '../../contract/schemas';

/** What the session layer hands to the HTTP layer: the current pair plus who the user is. */
export interface SessionTokens {
  token: string | null;
  refreshToken: string | null;
  _id?: string | null;
  email?: string | null;
}

/** Callbacks through which src/machines plugs the session into the HTTP layer. */
export interface SessionBridge {
  /** Reads the freshest known pair; may come from storage another tab just wrote. */
  getTokens: () => SessionTokens | null;
  onRefreshed: (data: RefreshResult) => void;
  onSessionInvalid: () => void;
}

let bridge: SessionBridge | null = null;

/** Plugs the session in (or out, with null). */
export function configureSession(next: SessionBridge | null): void {
  bridge = next;
}

/** The plugged-in session, if any. */
export function sessionBridge(): SessionBridge | null {
  return bridge;
}
