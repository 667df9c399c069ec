/** Applications (spec §7): one application, for the pages that show its name; create, rename. */
import { queryOptions } from '@tanstack/react-query';
import { tagService } from './errors';
import { apiRequest } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { invalidateLists } from './lists';
import { queryClient } from './query';
import { applicationRowSchema, type ApplicationRow } from '../../contract/schemas';

const applicationsService = tagService('applications');

/** One application (GET v1/applications/{id}); an unknown id fails with 404. */
export const applicationQuery = (id: string) =>
  queryOptions({
    queryKey: ['applications', id] as const,
    queryFn: ({ signal }) =>
      applicationsService(() =>
        apiRequest(endpoint(ENDPOINTS.application, { id }), applicationRowSchema, { signal }),
      ),
  });

/** Creates an application (admins; a name in use answers 409). */
export function createApplication(name: string): Promise<ApplicationRow> {
  return applicationsService(() =>
    apiRequest(endpoint(ENDPOINTS.applications, {}, 'private'), applicationRowSchema, {
      method: 'post',
      json: { name },
    }),
  );
}

/**
 * Renames an application (admins). Based on `baseVersion` (If-Match), a name someone else
 * changed since answers 409 EDIT_CONFLICT; without it the last rename wins.
 */
export function renameApplication(
  id: string,
  name: string,
  baseVersion?: number,
): Promise<ApplicationRow> {
  const options = { method: 'patch', json: { name }, baseVersion } as const;
  return applicationsService(() =>
    apiRequest(endpoint(ENDPOINTS.application, { id }, 'private'), applicationRowSchema, options),
  );
}

/** After an application was created or renamed: its reads and the lists showing it. */
export async function applicationsChanged(): Promise<void> {
  await Promise.all([
    invalidateLists((endpoint) => /application/.test(endpoint)),
    queryClient.invalidateQueries({ queryKey: ['applications'] }),
  ]);
}
