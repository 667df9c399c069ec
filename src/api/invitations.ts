/**
 * Invitations (docs/api.md "Invitations"): an admin's pending invitations, and the
 * invitee's link. Every failure carries `service: 'invitations'`.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  invitationBodySchema,
  invitationLookupResultSchema,
  invitationSchema,
  signInResultSchema,
  type SignInResult,
  type Invitation,
} from '../../contract/account-schemas';
import { tagService } from './errors';
import { apiRequest } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { invalidateList } from './lists';

const invitationsService = tagService('invitations');
/** The pending invitations' list (admins only): paged, searched, filtered by role. */
export const INVITATIONS_ENDPOINT = endpoint(ENDPOINTS.invitations);

// The users list shows the pending invitations too, as invited people.
function changed<T>(work: () => Promise<T>): Promise<T> {
  return invitationsService(async () => {
    const result = await work();
    await Promise.all([
      invalidateList(INVITATIONS_ENDPOINT),
      invalidateList(endpoint(ENDPOINTS.users)),
    ]);
    return result;
  });
}

/** Invites an address with a role; the server mails the link. */
export const invite = (body: z.input<typeof invitationBodySchema>): Promise<Invitation> =>
  changed(() =>
    apiRequest(endpoint(ENDPOINTS.invitations), invitationSchema, { method: 'post', json: body }),
  );

/** Mails a new link valid 7 more days; the old link stops working. */
export const resendInvitation = (id: string): Promise<Invitation> =>
  changed(() =>
    apiRequest(endpoint(ENDPOINTS.invitationResend, { id }), invitationSchema, {
      method: 'post',
      json: {},
    }),
  );

/** Revokes an invitation: its link stops working. */
export const revokeInvitation = (id: string): Promise<unknown> =>
  changed(() =>
    apiRequest(endpoint(ENDPOINTS.invitation, { id }), z.unknown(), {
      method: 'delete',
    }),
  );

/** What an invitation link is for (the address and role); 404 when it no longer works. */
export const invitationLinkQuery = (token: string) =>
  queryOptions({
    queryKey: ['invitation-link', token] as const,
    queryFn: ({ signal }) =>
      invitationsService(() =>
        apiRequest(endpoint(ENDPOINTS.invitationLookup), invitationLookupResultSchema, {
          method: 'post',
          json: { token },
          auth: false,
          signal,
        }),
      ),
    retry: false,
  });

/**
 * Sets the invitee's password; answers a new session with the invited role, or the second
 * step's challenge when the address's account has two-step sign-in on.
 */
export const acceptInvitation = (body: {
  token: string;
  password: string;
}): Promise<SignInResult> =>
  invitationsService(() =>
    apiRequest(endpoint(ENDPOINTS.invitationAccept), signInResultSchema, {
      method: 'post',
      json: body,
      auth: false,
    }),
  );
