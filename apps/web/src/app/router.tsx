import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { PageSkeleton } from '../components/ui/page-skeleton.tsx';
import { AppLayout } from './layout.tsx';
import { RouteError } from './route-error.tsx';
import type { InfoPageName } from './routes/info-page.tsx';
import { CATEGORY_ROUTE_ID } from './scroll-manager.tsx';

const infoRoute = (path: string, page: InfoPageName): RouteObject => ({
  path,
  id: `info-${page}`,
  handle: { infoPage: page },
  lazy: () => import('./routes/info-page.tsx'),
});

/** SPEC.md section 2: every route, each loaded on demand; ids are the route names the spec uses. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      {
        id: 'pages',
        errorElement: <RouteError />,
        HydrateFallback: PageSkeleton,
        children: [
          { index: true, id: 'Index', lazy: () => import('./routes/home.tsx') },
          // Overlays on home: the page is Index, and the account dialogs (loaded for these paths) add the form.
          { path: 'password-reset/:token', id: 'PasswordReset', lazy: () => import('./routes/home.tsx') },
          { path: 'verify-email/:hashToken', id: 'VerifyEmail', lazy: () => import('./routes/home.tsx') },
          { path: 'profile', id: 'profile', handle: { private: true }, lazy: () => import('./routes/profile.tsx') },
          { path: 'noveltes', id: 'Novelties', lazy: () => import('./routes/novelties.tsx') },
          { path: 'discounts', id: 'Discounts', lazy: () => import('./routes/discounts.tsx') },
          { path: 'holiday', id: 'Holiday', lazy: () => import('./routes/holiday.tsx') },
          { path: 'category/:id', id: CATEGORY_ROUTE_ID, lazy: () => import('./routes/category.tsx') },
          { path: 'product/:id', id: 'Product', lazy: () => import('./routes/product.tsx') },
          { path: 'search/:searchStr', id: 'search', lazy: () => import('./routes/search.tsx') },
          infoRoute('privacy', 'privacy'),
          infoRoute('contract-offer', 'contractOffer'),
          infoRoute('requisites', 'requisites'),
          infoRoute('guarantees', 'guarantees'),
          infoRoute('faq', 'faq'),
          { path: '*', id: 'NotFound', lazy: () => import('./routes/not-found.tsx') },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
