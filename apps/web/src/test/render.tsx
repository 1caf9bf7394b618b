import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { mergeTexts, Translator } from '../lib/translator.ts';
import { TranslatorProvider } from '../lib/use-translation.tsx';
import enAccount from '../locales/account/en.json';
import enBasket from '../locales/basket/en.json';
import en from '../locales/en.json';
import enInfo from '../locales/info/en.json';
import enPayments from '../locales/payments/en.json';
import enShop from '../locales/shop/en.json';

/** `language` sets the interface language (dates, numbers, prices); the texts are English. */
export function createTestI18n(language = 'en') {
  // The whole catalogue, as a visit that has opened every screen holds it.
  return new Translator(language, [enInfo, enAccount, enBasket, enPayments, enShop].reduce(mergeTexts, en));
}

/** Shows where the router is, so tests can assert on navigation. */
export function LocationProbe() {
  const location = useLocation();
  return (
    <>
      <output data-testid="location">{`${location.pathname}${location.search}`}</output>
      <output data-testid="location-state">{JSON.stringify(location.state ?? null)}</output>
    </>
  );
}

const routeParts = (route: string) => {
  const url = new URL(route, 'http://localhost');
  return { pathname: url.pathname, search: url.search };
};

/** `state`: the navigation state the route is entered with. */
export function renderWithApp(
  ui: ReactNode,
  { route = '/', language, state }: { route?: string; language?: string; state?: unknown } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const i18n = createTestI18n(language);
  return render(
    <TranslatorProvider translator={i18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[state === undefined ? route : { ...routeParts(route), state }]}>
          <Routes>
            <Route
              path="*"
              element={
                <>
                  {ui}
                  <LocationProbe />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </TranslatorProvider>,
  );
}

/** A fetch stand-in answering JSON by path; anything unknown is a 404 in the API's shape. */
export function mockFetch(routes: Record<string, unknown>) {
  const calls: string[] = [];
  const fetchMock = async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(`${url.pathname}${url.search}`);
    const body = routes[url.pathname];
    if (body === undefined) {
      return new Response(JSON.stringify({ message: 'Not found' }), { status: 404 });
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetchMock, calls };
}
