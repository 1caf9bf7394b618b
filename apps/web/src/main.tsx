import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers.tsx';
import { AppRoutes, preloadFirstPage } from './app/router.tsx';
import { initI18n } from './lib/i18n.ts';
import { queryClient } from './lib/query-client.ts';
import { createAppHistory, TransitionRouter } from './lib/transition-router.tsx';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

// The first page's code and data start loading while the catalogue of texts arrives.
const history = createAppHistory();
preloadFirstPage(history.location);
const i18n = await initI18n();

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient} i18n={i18n}>
      <TransitionRouter history={history}>
        <AppRoutes />
      </TransitionRouter>
    </AppProviders>
  </StrictMode>,
);
