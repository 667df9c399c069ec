/**
 * The user's changes (see src/api/mutations.ts for the rule; the others of admin.ts update the
 * cache in their request functions).
 */
import { changeUserRole } from './admin';
import { toApiError } from '../../../api/errors';
import { queryClient } from '../../../api/query';
import { userQuery } from '../../../api/user-assets';
import type { Role } from '../../../../contract/schemas';

/**
 * Gives a user a role (see changeUserRole: the cache takes the answer). When someone else
 * changed it since `baseVersion`, the user is read again, so the page shows theirs.
 */
export async function setUserRole(id: string, role: Role, baseVersion?: number) {
  try {
    return await changeUserRole(id, role, baseVersion);
  } catch (error) {
    if (toApiError(error).code === 'EDIT_CONFLICT') {
      await queryClient.invalidateQueries({ queryKey: userQuery(id).queryKey });
    }
    throw error;
  }
}
