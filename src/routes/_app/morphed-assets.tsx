import { createFileRoute } from '@tanstack/react-router';
import { defineList } from '../../api/list-url';
import { MorphedAssetsList } from '../../features/morphs';

const list = defineList({
  sortFields: ['name', 'createdAt'],
  defaultOrder: { createdAt: 'desc' },
});

export const Route = createFileRoute('/_app/morphed-assets')({
  validateSearch: list.validateSearch,
  component: () => <MorphedAssetsList list={list} />,
});
