import { type Location, matchRoutes, Route, Routes } from 'react-router-dom';
import { PROFILE_PATH } from '../features/auth/private-paths.ts';
import { CHECKOUT_PATH } from '../features/checkout/paths.ts';
import { AppLayout } from './layout.tsx';
import { type PageRoute, pageWithProps, preloadPage, RoutePage } from './route-page.tsx';
import type { InfoPageName } from './routes/info-page.tsx';
import type { PaymentPageName } from './routes/payment-pages.tsx';
import { CATEGORY_PATH } from './scroll-manager.tsx';

const home = () => import('./routes/home.tsx');
const infoPage = () => import('./routes/info-page.tsx');
const info = (page: InfoPageName) => pageWithProps(`info-${page}`, infoPage, { page });
const paymentPages = () => import('./routes/payment-pages.tsx');
const paymentPage = (page: PaymentPageName) => pageWithProps(`payment-${page}`, paymentPages, { page });

/**
 * Every route, each page's code loaded on demand; each id is its route's name.
 */
const PAGES: { path: string; route: PageRoute }[] = [
  { path: '/', route: { id: 'Index', load: home } },
  // Overlays on home: the page is Index, and the account dialogs (loaded for these paths) add the form.
  { path: '/password-reset/:token', route: { id: 'PasswordReset', load: home } },
  { path: '/verify-email/:hashToken', route: { id: 'VerifyEmail', load: home } },
  { path: '/email-change-undo/:token', route: { id: 'EmailChangeUndo', load: home } },
  { path: PROFILE_PATH, route: { id: 'profile', load: () => import('./routes/profile.tsx') } },
  { path: CHECKOUT_PATH, route: { id: 'checkout', load: () => import('./routes/checkout.tsx') } },
  { path: '/payment-confirm/:orderId', route: paymentPage('confirm') },
  { path: '/payment-error/:orderId', route: paymentPage('error') },
  { path: '/noveltes', route: { id: 'Novelties', load: () => import('./routes/novelties.tsx') } },
  { path: '/discounts', route: { id: 'Discounts', load: () => import('./routes/discounts.tsx') } },
  { path: '/holiday', route: { id: 'Holiday', load: () => import('./routes/holiday.tsx') } },
  { path: CATEGORY_PATH, route: { id: 'Category', load: () => import('./routes/category.tsx') } },
  { path: '/product/:id', route: { id: 'Product', load: () => import('./routes/product.tsx') } },
  { path: '/search/:searchStr', route: { id: 'search', load: () => import('./routes/search.tsx') } },
  { path: '/privacy', route: info('privacy') },
  { path: '/contract-offer', route: info('contractOffer') },
  { path: '/requisites', route: info('requisites') },
  { path: '/guarantees', route: info('guarantees') },
  { path: '/faq', route: info('faq') },
  { path: '*', route: { id: 'NotFound', load: () => import('./routes/not-found.tsx') } },
];

/** The layout holds the pages' Suspense and error boundaries. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {PAGES.map(({ path, route }) => (
          <Route key={route.id} path={path} element={<RoutePage route={route} />} />
        ))}
      </Route>
    </Routes>
  );
}

/**
 * Starts the first page's code and data for `location` before anything renders, while the texts
 * load: the page is then usually ready when React first asks for it.
 */
export function preloadFirstPage(location: Location) {
  const match = matchRoutes(
    PAGES.map(({ path }, index) => ({ path, id: String(index) })),
    location.pathname,
  )?.at(-1);
  const page = match ? PAGES[Number(match.route.id)] : undefined;
  if (page && match) preloadPage(page.route, location, match.params);
}
