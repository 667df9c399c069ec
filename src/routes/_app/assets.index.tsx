import { createFileRoute } from '@tanstack/react-router';
import { AssetsList, assetsListDefinition as list } from '../../features/assets';

export const Route = createFileRoute('/_app/assets/')({
  validateSearch: list.validateSearch,
  component: () => <AssetsList list={list} view="all" />,
});
