import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { ASSET_TYPES, GENDERS } from '../../../contract/assets';
import { AssetsList } from '../../features/assets';

const list = defineList({
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

export const Route = createFileRoute('/_app/assets/')({
  validateSearch: list.validateSearch,
  component: () => <AssetsList list={list} />,
});
