/** The administration of users and invitations (private API). */
import { z } from 'zod/mini';
import {
  invitationBodySchema,
  invitationSchema,
  secondFactorRemovedSchema,
} from '../account-schemas';
import {
  sessionInfoSchema,
  sessionsEndedSchema,
  userBulkBodySchema,
  userBulkResultSchema,
  userBulkRoleBodySchema,
  userRoleBodySchema,
  userRowSchema,
} from '../schemas';
import { invitationList, listQuery, userList } from '../list-params';
import { bearer, ok, list, PRIVATE, type Route } from './route';

const U = 'Users';

/** Users, their sessions, roles and second factors, and invitations, for an administrator. */
export const userAdminRoutes: Route[] = [
  bearer('get', '/private/v1/users', U, 'List users', [PRIVATE, ['read', 'User']], {
    query: listQuery(userList),
    answer: list(userRowSchema),
  }),
  bearer('get', '/private/v1/users/{id}', U, 'Read a user', [PRIVATE, ['read', 'User']], {
    answer: ok(userRowSchema),
  }),
  bearer('patch', '/private/v1/users/{id}', U, 'Give a role', [PRIVATE, ['manage', 'User']], {
    body: userRoleBodySchema,
    answer: ok(userRowSchema),
    errors: [409, 412],
  }),
  bearer(
    'get',
    '/private/v1/users/{id}/sessions',
    U,
    "A user's sessions",
    [PRIVATE, ['manage', 'User']],
    { answer: ok(z.array(sessionInfoSchema)) },
  ),
  bearer(
    'delete',
    '/private/v1/users/{id}/sessions',
    U,
    "End a user's sessions",
    [PRIVATE, ['manage', 'User']],
    { answer: ok(sessionsEndedSchema) },
  ),
  bearer(
    'delete',
    '/private/v1/users/{id}/sessions/{sid}',
    U,
    "End one of a user's sessions",
    [PRIVATE, ['manage', 'User']],
    { answer: ok(sessionsEndedSchema) },
  ),
  ...['disable', 'enable'].flatMap((kind) => [
    bearer(
      'post',
      `/private/v1/users/{id}/${kind}`,
      U,
      `${kind} a user`,
      [PRIVATE, ['manage', 'User']],
      { answer: ok(userRowSchema), errors: [409] },
    ),
    bearer(
      'post',
      `/private/v1/users/bulk-${kind}`,
      U,
      `${kind} users`,
      [PRIVATE, ['manage', 'User']],
      { body: userBulkBodySchema, answer: ok(userBulkResultSchema), errors: [409] },
    ),
  ]),
  bearer(
    'post',
    '/private/v1/users/bulk-role',
    U,
    'Give users a role',
    [PRIVATE, ['manage', 'User']],
    { body: userBulkRoleBodySchema, answer: ok(userBulkResultSchema), errors: [409] },
  ),
  bearer('post', '/private/v1/users/{id}/reset-password', U, 'Mail a reset code', [
    PRIVATE,
    ['manage', 'User'],
  ]),
  bearer(
    'post',
    '/private/v1/users/{id}/resend-verification',
    U,
    'Mail a verification code',
    [PRIVATE, ['manage', 'User']],
    { errors: [409] },
  ),
  bearer(
    'delete',
    '/private/v1/users/{id}/second-factor',
    U,
    "Reset a user's two-step sign-in",
    [PRIVATE, ['manage', 'User']],
    { answer: ok(secondFactorRemovedSchema), errors: [409] },
  ),

  bearer(
    'get',
    '/private/v1/invitations',
    'Invitations',
    'Pending invitations',
    [PRIVATE, ['manage', 'User']],
    { query: listQuery(invitationList), answer: list(invitationSchema) },
  ),
  bearer(
    'post',
    '/private/v1/invitations',
    'Invitations',
    'Invite',
    [PRIVATE, ['manage', 'User']],
    { body: invitationBodySchema, answer: ok(invitationSchema), status: 201, errors: [409] },
  ),
  bearer(
    'post',
    '/private/v1/invitations/{id}/resend',
    'Invitations',
    'Send an invitation again',
    [PRIVATE, ['manage', 'User']],
    { answer: ok(invitationSchema) },
  ),
  bearer('delete', '/private/v1/invitations/{id}', 'Invitations', 'Revoke an invitation', [
    PRIVATE,
    ['manage', 'User'],
  ]),
];
