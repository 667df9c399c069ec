/** Asset endpoints (spec §7 "Assets"). Every failure carries `service: 'assets'`. */
import type { SearchParamsOption } from 'ky';
import { tagService } from './errors';
import { apiRequest } from './http';
import { countByTypeSchema, type CountByType } from './schemas';

const assetsService = tagService('assets');

/** How many assets exist per type, optionally filtered by query parameters. */
export function countByType(query?: SearchParamsOption): Promise<CountByType> {
  return assetsService(
    apiRequest('v1/assets/countByType', countByTypeSchema, {
      ...(query === undefined ? {} : { searchParams: query }),
    }),
  );
}
