import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { morphStatusSchema } from '../../../contract/schemas';
import { MorphQueueList } from '../../features/morphs';

const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    status: z.optional(z.array(morphStatusSchema)),
  }),
  sortFields: ['createdAt', 'updatedAt', 'status'],
  defaultOrder: { createdAt: 'desc' },
  mode: 'infinite',
});

export const Route = createFileRoute('/_app/morph-queue')({
  validateSearch: list.validateSearch,
  component: () => <MorphQueueList list={list} />,
});
