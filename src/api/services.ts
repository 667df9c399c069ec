/**
 * GET `v1/services`: which optional model services the server has (an icon renderer, a texture
 * predictor). Every failure carries `service: 'services'`.
 */
import { queryOptions } from '@tanstack/react-query';
import { tagService } from './errors';
import { apiRequest } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { servicesSchema, type Services } from '../../contract/schemas';

const servicesService = tagService('services');

/** Which model services the server has configured. */
export function getServices({ signal }: { signal?: AbortSignal } = {}): Promise<Services> {
  return servicesService(() =>
    apiRequest(
      endpoint(ENDPOINTS.services),
      servicesSchema,
      signal === undefined ? {} : { signal },
    ),
  );
}

/** The server's model services; its configuration changes only with a restart. */
export const servicesQuery = () =>
  queryOptions({
    queryKey: ['services'] as const,
    queryFn: ({ signal }) => getServices({ signal }),
    staleTime: Infinity,
  });
