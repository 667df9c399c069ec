import { useNavigate, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  selectError,
  selectIsBusy,
  selectIsLoggedIn,
  selectIsAnonymous,
  type SessionActor,
} from './app-session';
import { describeError } from '../api/error-info';

/** What every route can reach through the router context. */
export interface RouterContext {
  session: SessionActor;
}

/** The app's session actor, from the router context. */
export function useSessionActor(): SessionActor {
  return useRouter().options.context.session;
}

/**
 * Binds an account form to the session actor: clears stale errors on mount, exposes
 * progress and the translated error, and leaves for `to` (when given) once a session exists.
 */
export function useSessionForm(to: string | null, options: { allowAnonymous?: boolean } = {}) {
  const actor = useSessionActor();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isBusy = useSelector(actor, selectIsBusy);
  const error = useSelector(actor, selectError);
  const isLoggedIn = useSelector(actor, selectIsLoggedIn);
  const isAnonymous = useSelector(actor, selectIsAnonymous);
  const done = isLoggedIn && (options.allowAnonymous || !isAnonymous);

  useEffect(() => {
    actor.send({ type: 'CLEAR_ERROR' });
  }, [actor]);

  useEffect(() => {
    if (done && to) void navigate({ to });
  }, [done, navigate, to]);

  return { actor, isBusy, error, errorText: describeError(error, t), isSignedIn: done, t };
}
