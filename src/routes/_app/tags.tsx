import { createFileRoute } from '@tanstack/react-router';
import { defineList } from '../../api/list-url';
import { TagsList } from '../../features/tags';

const list = defineList({
  sortFields: ['name', 'createdAt', 'assetCount'],
  defaultOrder: { name: 'asc' },
});

export const Route = createFileRoute('/_app/tags')({
  validateSearch: list.validateSearch,
  component: () => <TagsList list={list} />,
});
