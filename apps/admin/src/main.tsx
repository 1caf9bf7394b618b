import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { ConsoleRoutes } from './app/routes.tsx';
import { I18nProvider, loadCatalogue, storedLanguage } from './lib/i18n.tsx';
import { createQueryClient } from './lib/query.ts';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const language = storedLanguage();
document.documentElement.lang = language;
const catalogue = await loadCatalogue(language);

createRoot(container).render(
  <StrictMode>
    <I18nProvider initial={{ language, catalogue }}>
      <QueryClientProvider client={createQueryClient()}>
        <BrowserRouter basename="/admin">
          <ConsoleRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>,
);
