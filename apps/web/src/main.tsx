import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './app/providers.tsx';
import { createRouter } from './app/router.tsx';
import { initI18n } from './lib/i18n.ts';
import { queryClient } from './lib/query-client.ts';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

// The router starts loading the first page's code and data while the catalogue of texts arrives.
const router = createRouter();
const i18n = await initI18n();

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
