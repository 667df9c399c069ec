import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { roleSchema, userStatusSchema } from '../../../contract/schemas';
import { UsersList } from '../../features/users';

const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    role: z.optional(z.array(roleSchema)),
    verified: z.optional(z.enum(['true', 'false'])),
    status: z.optional(z.array(userStatusSchema)),
  }),
  sortFields: ['email', 'role', 'createdAt', 'lastSignInAt'],
  defaultOrder: { email: 'asc' },
});

export const Route = createFileRoute('/_app/users/')({
  validateSearch: list.validateSearch,
  component: () => <UsersList list={list} />,
});
