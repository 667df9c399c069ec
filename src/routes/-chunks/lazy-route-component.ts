import { createElement, use, type ComponentType } from 'react';

/**
 * TanStack Router's `lazyRouteComponent` without its reload: when a screen's code cannot be
 * fetched it reloads the page once, and offline that shows the browser's offline page. Here the
 * error reaches the route's error component (src/routes/-chunks/route-error.tsx), which offers
 * Retry; a later render or `preload()` tries the import again. vite.config.ts (`lazyRoutes`)
 * puts it in place of the router's in the code-split route files.
 */
export function lazyRouteComponent<T extends Record<string, unknown>>(
  importer: () => Promise<T>,
  exportName = 'default',
) {
  let loading: Promise<void> | undefined;
  let component: ComponentType<Record<string, unknown>> | undefined;
  let error: unknown;
  const load = (): Promise<void> => {
    if (!loading) {
      error = undefined;
      loading = importer().then(
        (module) => {
          component = module[exportName] as ComponentType<Record<string, unknown>>;
        },
        (failure: unknown) => {
          // Forget the attempt: Retry (or the next navigation) imports again.
          loading = undefined;
          error = failure;
        },
      );
    }
    return loading;
  };
  function Lazy(props: Record<string, unknown>) {
    if (error !== undefined) throw error;
    if (!component) use(load());
    return component ? createElement(component, props) : null;
  }
  Lazy.preload = load;
  return Lazy;
}
