import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { ACTIVITY_KINDS } from '../../../contract/schemas';
import { ActivityList } from '../../features/activity';

const day = z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)));

const list = defineList({
  filterSchema: z.strictObject({
    kind: z.optional(z.array(z.enum(ACTIVITY_KINDS))),
    routingKey: z.optional(z.array(z.string())),
    actorId: z.optional(z.array(z.string())),
    search: z.optional(z.string()),
    recordId: z.optional(z.array(z.string())),
    from: day,
    to: day,
  }),
  sortFields: ['createdAt'],
  defaultOrder: { createdAt: 'desc' },
});

export const Route = createFileRoute('/_app/activity')({
  validateSearch: list.validateSearch,
  component: () => <ActivityList list={list} />,
});
