import { createFileRoute } from '@tanstack/react-router';
import { NewCageMeshPage } from '../../features/cage-meshes';

export const Route = createFileRoute('/_app/cage-meshes/new')({
  component: NewCageMeshPage,
});
