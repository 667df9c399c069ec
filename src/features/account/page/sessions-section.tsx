import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endOtherSessions, endSession, mySessionsQuery } from '../../../api/account';
import { describeError } from '../../../api/error-info';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import { dateCell } from '../../../ui/dom/list/cells';
import { announce } from '../../../ui/dom/toasts';
import { UserAgent } from '../../../ui/dom/user-agent';

/** A browser as people name it, "Chrome on Linux", from what a user agent says. */
export const browserOn = (t: TFunction) => (browser: string, system: string | undefined) =>
  system ? t('account.browserOn', { browser, system }) : browser;

/** One's live sessions: where, since when; the others can be ended one by one or together. */
export function SessionsSection() {
  const { t } = useTranslation();
  const sessions = useQuery(mySessionsQuery());
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const run = async (key: string, work: () => Promise<number>) => {
    setBusy(key);
    setError(null);
    try {
      const count = await work();
      announce({ tone: 'success', title: t('account.sessionsEnded', { count }) });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  };

  const rows = sessions.data ?? [];
  const others = rows.filter((session) => !session.current);
  return (
    <section className="account-section" aria-labelledby="account-sessions">
      <h2 id="account-sessions">{t('account.sessions')}</h2>
      <p>{t('account.sessionsIntro')}</p>
      {sessions.isError && (
        <Alert tone="error">
          {t('account.sessionsFailed')} {describeError(sessions.error, t)}
        </Alert>
      )}
      {rows.length > 0 && (
        <div className="data-table-container">
          <table className="data-table account-sessions">
            <thead>
              <tr>
                <th scope="col">{t('account.browser')}</th>
                <th scope="col">{t('account.client')}</th>
                <th scope="col">{t('account.started')}</th>
                <th scope="col">{t('account.lastUsed')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('account.endSession')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((session) => (
                <tr key={session.id}>
                  <td className="account-agent">
                    <UserAgent
                      value={session.userAgent}
                      unknownLabel={t('account.unknown')}
                      describe={browserOn(t)}
                    />
                  </td>
                  <td>{session.clientAddress ?? t('account.unknown')}</td>
                  <td>{dateCell(session.startedAt)}</td>
                  <td>{dateCell(session.lastUsedAt)}</td>
                  <td>
                    {session.current ? (
                      <strong>{t('account.thisSession')}</strong>
                    ) : (
                      <ActionButton
                        isPending={busy === session.id}
                        pendingLabel={t('account.endSession')}
                        onPress={() => void run(session.id, () => endSession(session.id))}
                      >
                        <span aria-hidden="true">{t('account.endSession')}</span>
                        <span className="visually-hidden">
                          {t('account.endSessionLabel', {
                            when: new Date(session.startedAt).toLocaleString(),
                          })}
                        </span>
                      </ActionButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {sessions.isSuccess && others.length === 0 && <p>{t('account.noOtherSessions')}</p>}
      {error !== null && <Alert tone="error">{describeError(error, t)}</Alert>}
      {others.length > 1 && (
        <ActionButton
          isPending={busy === 'all'}
          pendingLabel={t('account.endOthers')}
          onPress={() => void run('all', endOtherSessions)}
        >
          {t('account.endOthers')}
        </ActionButton>
      )}
    </section>
  );
}
