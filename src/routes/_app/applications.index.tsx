import { createFileRoute } from '@tanstack/react-router';
import { defineList } from '../../api/list-url';
import { ApplicationsList } from '../../features/applications';

const list = defineList({
  sortFields: ['name', 'createdAt'],
  defaultOrder: { name: 'asc' },
});

export const Route = createFileRoute('/_app/applications/')({
  validateSearch: list.validateSearch,
  component: () => <ApplicationsList list={list} />,
});
