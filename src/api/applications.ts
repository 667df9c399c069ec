/** Applications (spec §7): one application, for the pages that show its name. */
import { queryOptions } from '@tanstack/react-query';
import { tagService } from './errors';
import { apiRequest } from './http';
import { applicationRowSchema } from './schemas';

const applicationsService = tagService('applications');

/** One application (GET v1/applications/{id}); an unknown id fails with 404. */
export const applicationQuery = (id: string) =>
  queryOptions({
    queryKey: ['applications', id] as const,
    queryFn: ({ signal }) =>
      applicationsService(() =>
        apiRequest(`v1/applications/${encodeURIComponent(id)}`, applicationRowSchema, { signal }),
      ),
  });
