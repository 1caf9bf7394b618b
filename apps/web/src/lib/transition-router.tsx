import { createContext, type ReactNode, useContext, useLayoutEffect, useState, useTransition } from 'react';
import { UNSAFE_createBrowserHistory as createBrowserHistory, Router } from 'react-router-dom';

const PendingContext = createContext(false);

/** The page's session history, as BrowserRouter keeps it. */
export const createAppHistory = () => createBrowserHistory({ v5Compat: true });
export type BrowserHistory = ReturnType<typeof createAppHistory>;

/**
 * react-router's BrowserRouter with the navigation made a React transition the app can see.
 *
 * A page suspends while its code and data load (see app/route-page.tsx), and a suspending
 * transition keeps the current page on screen meanwhile: a click shows the next page complete,
 * not a spinner. `useNavigationPending` says when that is happening, for the progress bar and the
 * product grid. This is what react-router's data routers do with loaders, without their
 * 15 KB (gzip) of the first page's JavaScript; the history is the one BrowserRouter itself uses.
 */
export function TransitionRouter({ history, children }: { history: BrowserHistory; children: ReactNode }) {
  const [state, setState] = useState(() => ({ action: history.action, location: history.location }));
  const [pending, startTransition] = useTransition();

  useLayoutEffect(
    () =>
      history.listen(({ action, location }) => {
        startTransition(() => setState({ action, location }));
      }),
    [history],
  );

  return (
    <PendingContext value={pending}>
      <Router location={state.location} navigationType={state.action} navigator={history}>
        {children}
      </Router>
    </PendingContext>
  );
}

/** True while a navigation waits for the next page's code or data; false outside TransitionRouter. */
export const useNavigationPending = () => useContext(PendingContext);
