import { z } from 'zod/mini';
import { defineList } from '../../../api/list-url';
import { ASSET_TYPES, GENDERS } from '../../../../contract/assets';

/**
 * The search every assets list route validates (all assets, editable by me, the defaults):
 * the same filters and sort fields, as the three endpoints take the same list query.
 */
export const assetsListDefinition = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    type: z.optional(z.array(z.enum(ASSET_TYPES))),
    gender: z.optional(z.array(z.enum(GENDERS))),
    applicationId: z.optional(z.array(z.string())),
    tagId: z.optional(z.array(z.string())),
    locked: z.optional(z.enum(['true', 'false'])),
  }),
  sortFields: ['name', 'type', 'gender', 'position', 'createdAt', 'updatedAt'],
  defaultOrder: { position: 'asc' },
});
