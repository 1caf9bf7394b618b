import { type ComponentType, Component as ReactComponent, type ReactNode, use } from 'react';
import { type Location, type Params, useLocation, useParams } from 'react-router-dom';
import { RouteError } from './route-error.tsx';

export interface LoaderArgs {
  params: Params;
  url: URL;
}

/**
 * What a file in app/routes exports: the page, and optionally a loader that starts or awaits the
 * page's queries so it renders with its data. A loader that throws shows RouteError (a 404 from
 * the API shows the 404 page).
 */
export interface RouteModule<Props extends object = object> {
  Component: ComponentType<Props>;
  loader?: (args: LoaderArgs) => unknown;
}

export interface PageRoute {
  /** The route's name. */
  id: string;
  load: () => Promise<RouteModule>;
  props?: object;
}

/** A route whose page takes props: the props are checked against the page here, once. */
export function pageWithProps<Props extends object>(
  id: string,
  load: () => Promise<RouteModule<Props>>,
  props: Props,
): PageRoute {
  return { id, load: load as () => Promise<RouteModule>, props };
}

/**
 * One load per route and navigation (location.key): a page that suspends renders again with the
 * same promise, and going back to a page it has shown takes its module and loader result from
 * here. The oldest entries are dropped; a dropped one loads again, from react-query's cache.
 */
const loads = new Map<string, Promise<RouteModule>>();
const LOADS_KEPT = 50;

function loadFor(route: PageRoute, location: Location, params: Params): Promise<RouteModule> {
  const key = `${route.id}:${location.key}`;
  let loading = loads.get(key);
  if (!loading) {
    const url = new URL(`${location.pathname}${location.search}${location.hash}`, window.location.origin);
    loading = route.load().then(async (module) => {
      await module.loader?.({ params, url });
      return module;
    });
    loads.set(key, loading);
    for (const old of loads.keys()) {
      if (loads.size <= LOADS_KEPT) break;
      loads.delete(old);
    }
  }
  return loading;
}

/** Starts a page's load ahead of its render (the first page, while the texts download). */
export function preloadPage(route: PageRoute, location: Location, params: Params) {
  loadFor(route, location, params).catch(() => {
    // The page's render meets the same promise and shows the error.
  });
}

/** Forgets the current page's load, so rendering it again runs the loader again (Try again). */
function forgetLoad(location: Location) {
  for (const key of loads.keys()) if (key.endsWith(`:${location.key}`)) loads.delete(key);
}

/** A route's element: suspends until the page's code and loader are done, then renders the page. */
export function RoutePage({ route }: { route: PageRoute }) {
  const location = useLocation();
  const params = useParams();
  const Page = use(loadFor(route, location, params)).Component;
  return <Page {...route.props} />;
}

interface BoundaryProps {
  location: Location;
  children: ReactNode;
}

/**
 * Catches a page that failed to load or render, inside the layout. Another navigation clears it;
 * Try again runs the page's loader again.
 */
export class RouteErrorBoundary extends ReactComponent<BoundaryProps, { error: unknown; key: string | null }> {
  override state = { error: null as unknown, key: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; key: string | null }) {
    // Keyed to the navigation that failed: a new one starts clean.
    if (state.key !== props.location.key) return { error: null, key: props.location.key };
    return null;
  }

  retry = () => {
    forgetLoad(this.props.location);
    this.setState({ error: null });
  };

  override render() {
    if (this.state.error !== null) return <RouteError error={this.state.error} onRetry={this.retry} />;
    return this.props.children;
  }
}
