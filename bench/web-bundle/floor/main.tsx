// The least a home page on the product owner's stack can be: React 19, react-router with a lazy
// route, react-query fetching one list and i18next translating one string. The store's home route
// is measured against this in the same run.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';

void i18next.use(initReactI18next).init({
  lng: 'en',
  resources: { en: { translation: { popular: 'Popular' } } },
  interpolation: { escapeValue: false },
});

const queryClient = new QueryClient();
const router = createBrowserRouter([{ path: '/', lazy: () => import('./home.tsx') }]);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
