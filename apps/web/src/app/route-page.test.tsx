import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { Link, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, notFound } from '../lib/api-client.ts';
import { createAppHistory, TransitionRouter, useNavigationPending } from '../lib/transition-router.tsx';
import { TranslatorProvider } from '../lib/use-translation.tsx';
import { createTestI18n } from '../test/render.tsx';
import {
  type LoaderArgs,
  type PageRoute,
  pageWithProps,
  preloadPage,
  RouteErrorBoundary,
  type RouteModule,
  RoutePage,
} from './route-page.tsx';

function deferred() {
  let resolve = () => {};
  let reject = (_error: unknown) => {};
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

function Title({ text }: { text: string }) {
  return <h1>{text}</h1>;
}

const pageModule = (loader?: RouteModule['loader']): RouteModule<{ text: string }> => ({
  Component: Title,
  ...(loader ? { loader } : {}),
});

/** AppLayout's arrangement of the boundaries, without the store's header and sidebar. */
function Layout() {
  const pending = useNavigationPending();
  const location = useLocation();
  return (
    <>
      <output data-testid="pending">{String(pending)}</output>
      <Link to="/next">next</Link>
      <RouteErrorBoundary location={location}>
        <Suspense fallback={<p>skeleton</p>}>
          <Outlet />
        </Suspense>
      </RouteErrorBoundary>
    </>
  );
}

let routeIds = 0;
/** A page showing `text` as its heading, with a fresh id: loads are remembered by route id and navigation. */
const route = (text: string, loader?: RouteModule['loader'], load = async () => pageModule(loader)): PageRoute =>
  pageWithProps(`test-${++routeIds}`, load, { text });

/**
 * Rendering, clicking and settling a load each in an awaited act(): a suspended page is retried
 * by React when its promise settles, and in tests that retry runs inside an act scope.
 */
const settle = (work: () => unknown) =>
  act(async () => {
    await work();
    await new Promise((done) => setTimeout(done, 0));
  });
const click = (element: HTMLElement) => settle(() => element.click());

function renderPages(first: PageRoute, next: PageRoute, history = createAppHistory()) {
  return settle(() =>
    render(
      <TranslatorProvider translator={createTestI18n()}>
        <TransitionRouter history={history}>
          <Routes>
            <Route element={<Layout />}>
              <Route index element={<RoutePage route={first} />} />
              <Route path="next" element={<RoutePage route={next} />} />
            </Route>
          </Routes>
        </TransitionRouter>
      </TranslatorProvider>,
    ),
  );
}

describe('pages and navigation', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('keeps the current page on screen while the next one loads, and says a navigation is pending', async () => {
    const data = deferred();
    const loader = vi.fn((_args: LoaderArgs) => data.promise);
    await renderPages(route('Home'), route('Next', loader));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeVisible();
    expect(screen.getByTestId('pending')).toHaveTextContent('false');

    await click(screen.getByRole('link', { name: 'next' }));
    await vi.waitFor(() => expect(loader).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('heading', { name: 'Home' })).toBeVisible();
    expect(screen.queryByText('skeleton')).toBeNull();
    expect(screen.getByTestId('pending')).toHaveTextContent('true');

    await settle(() => data.resolve());
    expect(await screen.findByRole('heading', { name: 'Next' })).toBeVisible();
    expect(screen.getByTestId('pending')).toHaveTextContent('false');
    expect(loader.mock.calls[0]?.[0]?.url.pathname).toBe('/next');
  });

  it('shows a failed load inside the layout, and Try again runs the loader again', async () => {
    const loader = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(new ApiError(500, 'Server Error'))
      .mockResolvedValueOnce(undefined);
    await renderPages(route('Home'), route('Next', loader));
    await click(await screen.findByRole('link', { name: 'next' }));
    expect(await screen.findByText('Something went wrong')).toBeVisible();
    expect(screen.getByRole('link', { name: 'next' })).toBeVisible();

    await click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Next' })).toBeVisible();
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('shows the 404 page when the loader finds nothing, and clears it on the next navigation', async () => {
    window.history.replaceState(null, '', '/next');
    await renderPages(
      route('Home'),
      route('Next', () => {
        throw notFound();
      }),
    );
    expect(await screen.findByTestId('not-found')).toBeVisible();
    await click(screen.getByRole('link', { name: 'Go to the home page' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeVisible();
    expect(screen.queryByTestId('not-found')).toBeNull();
  });

  it('uses the load a preload started instead of starting another', async () => {
    const loader = vi.fn(async () => {});
    const load = vi.fn(async () => pageModule(loader));
    const first = route('Home', undefined, load);
    const history = createAppHistory();
    preloadPage(first, history.location, {});
    await renderPages(first, route('Next'), history);
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeVisible();
    expect(load).toHaveBeenCalledTimes(1);
    expect(loader).toHaveBeenCalledTimes(1);
  });
});
