import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { GENDERS } from '../../../contract/assets';
import { CageMeshesList } from '../../features/cage-meshes';

const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    gender: z.optional(z.enum(GENDERS)),
  }),
  sortFields: ['name', 'createdAt', 'updatedAt'],
  defaultOrder: { updatedAt: 'desc' },
});

export const Route = createFileRoute('/_app/cage-meshes/')({
  validateSearch: list.validateSearch,
  component: () => <CageMeshesList list={list} />,
});
