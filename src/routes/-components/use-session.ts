import { useRouter } from '@tanstack/react-router';
import type { SessionActor } from '../../machines/app-session';

/** The app's session actor, from the router context. */
export function useSessionActor(): SessionActor {
  return useRouter().options.context.session;
}
