// The least a home page on the product owner's stack can be: React 19, react-router with a lazy
// route, react-query fetching one list. The store's home route is measured against this in the
// same run. `floor-router` is resolved by the benchmark to react-router's declarative mode (what
// the store uses) or to its data router, to price each.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AppRouter } from 'floor-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

const queryClient = new QueryClient();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AppRouter />
      </QueryClientProvider>
    </StrictMode>,
  );
}
