import { z } from 'zod/mini';
import { invitedRoleSchema } from '../../../../contract/schemas';
import { defineList } from '../../../api/list-url';

// A module of its own: the route's search validation is in the start-up bundle, and the screen
// (the list machinery, dialogs) must not come with it.
/** The address of the invitations list: search, roles, page and sort (latest sent first). */
export const invitationsList = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    role: z.optional(z.array(invitedRoleSchema)),
  }),
  sortFields: ['email', 'role', 'sentAt', 'expiresAt'],
  defaultOrder: { sentAt: 'desc' },
});
