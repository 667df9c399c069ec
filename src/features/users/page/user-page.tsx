import type { TFunction } from 'i18next';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/error-info';
import { setUserRole } from '../api/mutations';
import { editConflictErrorSchema, type Role, type UserRow } from '../../../../contract/schemas';
import {
  endUserSessions,
  mailUserCode,
  resetUserSecondFactor,
  setUserDisabled,
  userActivityQuery,
  userSessionsQuery,
} from '../api/admin';
import { userQuery } from '../../../api/user-assets';
import { selectUser } from '../../../machines/app-session';
import { Allowed, usePermissions } from '../../../machines/permissions.view';
import { useSessionActor } from '../../../machines/session.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import '../../../ui/dom/editor-page.css';
import { dateCell, formatDate } from '../../../ui/dom/list/cells';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { SelectBox } from '../../../ui/dom/select-box';
import { announce } from '../../../ui/dom/toasts';
import { UserAgent } from '../../../ui/dom/user-agent';
import { useDocumentTitle } from '../../../ui/dom/use-document-title';
import { Panel } from '../../assets';
import { SectionCrumbs } from '../../../ui/dom/section-crumbs';
import { changeDetail, changeTitle, recordCell } from '../../activity';
import { GIVEN_ROLES, roleLabel, statusBadge, userName } from '../user-texts';
import './user-page.css';

/** A question asked before a change: its texts and the change. */
interface Confirmation {
  title: string;
  body: string;
  submit: string;
  danger?: boolean;
  run: () => Promise<unknown>;
}

/** Runs a change and says how it went in a toast. */
async function runChange<T>(
  work: () => Promise<T>,
  done: string | ((answer: T) => string),
  t: TFunction,
) {
  try {
    const answer = await work();
    announce({ title: typeof done === 'string' ? done : done(answer), tone: 'success' });
  } catch (error) {
    announce({ title: describeError(error, t) ?? String(error), tone: 'error' });
  }
}

/** One user: their facts, role, account actions, activity and sessions (roles that may read users). */
export function UserPage({ userId }: { userId: string }) {
  return (
    <Allowed requires={['read', 'User']}>
      <User userId={userId} />
    </Allowed>
  );
}

function User({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { data: user } = useSuspenseQuery(userQuery(userId));
  const can = usePermissions();
  const session = useSessionActor();
  const isSelf = useSelector(session, (s) => selectUser(s)._id === userId);
  const mayManage = can('manage', 'User');
  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  const name = userName(t, user);
  useDocumentTitle(name, t('users.title'));

  const ask = (confirmation: Confirmation) => setConfirming(confirmation);
  const mayChange = mayManage && !isSelf;

  return (
    <section className="asset-page user-page" aria-labelledby="user-title">
      <SectionCrumbs section="/users" current={name} />
      <h1 id="user-title">{name}</h1>
      {!mayManage && <Alert tone="info">{t('users.readOnly')}</Alert>}
      {mayManage && isSelf && <Alert tone="info">{t('users.ownAccount')}</Alert>}
      <div className="asset-sections">
        <Panel title={t('users.details')}>
          <dl className="user-facts">
            <Fact label={t('users.email')}>{name}</Fact>
            <Fact label={t('users.role')}>{roleLabel(t, user.role)}</Fact>
            <Fact label={t('users.verified')}>
              {user.verifiedAt ? dateCell(user.verifiedAt) : t('users.no')}
            </Fact>
            <Fact label={t('users.status')}>{statusBadge(t, user)}</Fact>
            <Fact label={t('users.created')}>{dateCell(user.createdAt)}</Fact>
            <Fact label={t('users.lastSignIn')}>
              {user.lastSignInAt ? dateCell(user.lastSignInAt) : t('users.never')}
            </Fact>
            {user.secondFactor !== undefined && (
              <Fact label={t('users.twoStep')}>
                {t(user.secondFactor ? 'users.twoStepOn' : 'users.twoStepOff')}
              </Fact>
            )}
          </dl>
          <p>
            <Link to="/users/$userId/assets" params={{ userId }}>
              {t('users.viewAssets')}
            </Link>
          </p>
        </Panel>
        {mayChange && user.role !== 'anonymous' && <RolePanel user={user} ask={ask} />}
        {mayChange && <AccountActions user={user} ask={ask} />}
      </div>
      {mayManage && <SessionsPanel user={user} ask={ask} />}
      {can('update', 'Asset') && <ActivityPanel userId={userId} />}
      <FormDialog
        isOpen={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming?.title ?? ''}
        submitLabel={confirming?.submit ?? ''}
        cancelLabel={t('list.cancel')}
        tone={confirming?.danger ? 'danger' : 'default'}
        onSubmit={() => void confirming?.run()}
      >
        <p>{confirming?.body}</p>
      </FormDialog>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

type Ask = (confirmation: Confirmation) => void;

/**
 * The role, changed after a confirmation, based on the version shown: when someone else changed
 * it meanwhile the server refuses (409) and this says who and what it is now.
 */
function RolePanel({ user, ask }: { user: UserRow; ask: Ask }) {
  const { t } = useTranslation();
  const [role, setRole] = useState<Role>(user.role);
  const [conflict, setConflict] = useState<string | null>(null);
  const email = userName(t, user);
  const change = async () => {
    setConflict(null);
    try {
      await setUserRole(user.id, role, user.version);
      announce({
        title: t('users.roleChanged', { email, role: roleLabel(t, role) }),
        tone: 'success',
      });
    } catch (error) {
      const parsed = editConflictErrorSchema.safeParse((error as { data?: unknown }).data);
      const theirs = parsed.success ? parsed.data.conflicts[0] : undefined;
      if (!theirs) {
        announce({ title: describeError(error, t) ?? String(error), tone: 'error' });
        return;
      }
      setConflict(
        t('users.roleConflict', {
          role: roleLabel(t, theirs.current as Role),
          who: theirs.changedBy?.email ?? t('users.someone'),
          when: formatDate(theirs.changedAt),
        }),
      );
      setRole(theirs.current as Role);
    }
  };
  return (
    <Panel title={t('users.role')}>
      {conflict && <Alert tone="error">{conflict}</Alert>}
      <SelectBox
        label={t('users.newRole')}
        options={GIVEN_ROLES.map((value) => ({ value, label: roleLabel(t, value) }))}
        value={[role]}
        onChange={([value]) => value && setRole(value as Role)}
        placeholder={t('users.newRole')}
      />
      <ActionButton
        isDisabled={role === user.role}
        onPress={() =>
          ask({
            title: t('users.roleTitle', { email, role: roleLabel(t, role) }),
            body: t('users.roleBody'),
            submit: t('users.changeRole'),
            run: change,
          })
        }
      >
        {t('users.changeRole')}
      </ActionButton>
    </Panel>
  );
}

/**
 * Disable or enable, resend the verification, send a password reset, reset two-step sign-in:
 * each confirmed.
 */
function AccountActions({ user, ask }: { user: UserRow; ask: Ask }) {
  const { t } = useTranslation();
  const email = userName(t, user);
  const disabled = user.status === 'disabled';
  return (
    <Panel title={t('users.status')}>
      <div className="user-actions">
        <ActionButton
          variant={disabled ? 'primary' : 'danger'}
          onPress={() =>
            ask({
              title: t(disabled ? 'users.enableTitle' : 'users.disableTitle', { email }),
              body: t(disabled ? 'users.enableBody' : 'users.disableBody'),
              submit: t(disabled ? 'users.enable' : 'users.disable'),
              danger: !disabled,
              run: () =>
                runChange(
                  () => setUserDisabled(user.id, !disabled),
                  t(disabled ? 'users.enabled' : 'users.disabled', { email }),
                  t,
                ),
            })
          }
        >
          {t(disabled ? 'users.enable' : 'users.disable')}
        </ActionButton>
        {user.email && (
          <ActionButton
            onPress={() =>
              ask({
                title: t('users.resetTitle', { email }),
                body: t('users.resetBody'),
                submit: t('users.sendReset'),
                run: () =>
                  runChange(
                    () => mailUserCode(user.id, 'reset-password'),
                    t('users.resetSent', { email }),
                    t,
                  ),
              })
            }
          >
            {t('users.sendReset')}
          </ActionButton>
        )}
        {user.email && !user.verifiedAt && (
          <ActionButton
            onPress={() =>
              void runChange(
                () => mailUserCode(user.id, 'resend-verification'),
                t('users.verificationSent', { email }),
                t,
              )
            }
          >
            {t('users.resendVerification')}
          </ActionButton>
        )}
        {user.secondFactor && (
          <ActionButton
            variant="danger"
            onPress={() =>
              ask({
                title: t('users.resetTwoStepTitle', { email }),
                body: t('users.resetTwoStepBody'),
                submit: t('users.resetTwoStep'),
                danger: true,
                run: () =>
                  runChange(
                    () => resetUserSecondFactor(user.id),
                    t('users.twoStepReset', { email }),
                    t,
                  ),
              })
            }
          >
            {t('users.resetTwoStep')}
          </ActionButton>
        )}
      </div>
    </Panel>
  );
}

/** What the user did and what was done to their account: the latest few, and a link to all. */
function ActivityPanel({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const recent = useQuery(userActivityQuery(userId));
  const rows = recent.data?.data ?? [];
  return (
    <Panel title={t('users.activity')}>
      {recent.error ? <Alert tone="error">{describeError(recent.error, t)}</Alert> : null}
      {recent.isSuccess && rows.length === 0 && <p>{t('users.noActivity')}</p>}
      {rows.length > 0 && (
        <ul className="user-activity">
          {rows.map((row) => {
            const detail = changeDetail(row, t);
            return (
              <li key={row.id}>
                <span className="user-activity-when">{dateCell(row.createdAt)}</span>
                <span>
                  {changeTitle(row, t)}
                  {detail && <span className="changelog-detail"> · {detail}</span>}
                </span>
                <span>{recordCell(row, t)}</span>
              </li>
            );
          })}
        </ul>
      )}
      <p>
        <Link to="/activity" search={{ filter: { actorId: [userId] } }}>
          {t('users.allActivity')}
        </Link>
      </p>
    </Panel>
  );
}

/** The user's live sessions: started, last used, address and browser; end one or all. */
function SessionsPanel({ user, ask }: { user: UserRow; ask: Ask }) {
  const { t } = useTranslation();
  const sessions = useQuery(userSessionsQuery(user.id));
  const email = userName(t, user);
  const end = (sessionId?: string) =>
    runChange(
      () => endUserSessions(user.id, sessionId),
      (count) => (sessionId ? t('users.sessionEnded') : t('users.sessionsEnded', { count })),
      t,
    );
  const list = sessions.data ?? [];
  return (
    <Panel title={t('users.sessions')}>
      {sessions.error ? <Alert tone="error">{describeError(sessions.error, t)}</Alert> : null}
      {sessions.isSuccess && list.length === 0 && <p>{t('users.noSessions')}</p>}
      <ul className="session-list">
        {list.map((s) => (
          <li key={s.id}>
            <dl className="user-facts">
              <Fact label={t('users.started')}>{dateCell(s.startedAt)}</Fact>
              <Fact label={t('users.lastUsed')}>{dateCell(s.lastUsedAt)}</Fact>
              <Fact label={t('users.address')}>{s.clientAddress ?? t('users.unknown')}</Fact>
              <Fact label={t('users.userAgent')}>
                <UserAgent
                  value={s.userAgent}
                  unknownLabel={t('users.unknown')}
                  describe={(browser, system) =>
                    system ? t('users.browserOn', { browser, system }) : browser
                  }
                />
              </Fact>
            </dl>
            <ActionButton
              variant="danger"
              onPress={() =>
                ask({
                  title: t('users.endSessionTitle'),
                  body: t('users.endSessionBody'),
                  submit: t('users.endSession'),
                  danger: true,
                  run: () => end(s.id),
                })
              }
            >
              {t('users.endSession')}
            </ActionButton>
          </li>
        ))}
      </ul>
      {list.length > 1 && (
        <ActionButton
          variant="danger"
          onPress={() =>
            ask({
              title: t('users.endAllTitle', { email }),
              body: t('users.endAllBody'),
              submit: t('users.endAll'),
              danger: true,
              run: () => end(),
            })
          }
        >
          {t('users.endAll')}
        </ActionButton>
      )}
    </Panel>
  );
}
