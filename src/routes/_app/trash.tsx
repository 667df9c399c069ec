import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { TRASH_KINDS } from '../../../contract/schemas';
import { TrashList } from '../../features/trash';

const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    kind: z.optional(z.array(z.enum(TRASH_KINDS))),
    deletedBy: z.optional(z.array(z.string())),
  }),
  sortFields: ['deletedAt', 'name', 'kind'],
  defaultOrder: { deletedAt: 'desc' },
});

export const Route = createFileRoute('/_app/trash')({
  validateSearch: list.validateSearch,
  component: () => <TrashList list={list} />,
});
