import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { queryClient } from '../../api/query';
import { assetTemplateQuery, NewAssetPage } from '../../features/assets';

const searchSchema = z.object({ templateId: z.optional(z.string().check(z.minLength(1))) });

export const Route = createFileRoute('/_app/assets/new')({
  // A malformed templateId is dropped: the page then creates a blank asset.
  validateSearch: (search: Record<string, unknown>) => {
    const parsed = z.safeParse(searchSchema, search);
    return parsed.success ? parsed.data : {};
  },
  loaderDeps: ({ search }) => ({ templateId: search.templateId }),
  loader: ({ deps: { templateId } }) =>
    templateId && void queryClient.prefetchQuery(assetTemplateQuery(templateId)),
  component: NewAssetRoute,
});

function NewAssetRoute() {
  const { templateId } = Route.useSearch();
  return <NewAssetPage templateId={templateId} />;
}
