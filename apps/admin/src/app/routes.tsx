import { useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { useI18n } from '../lib/i18n.tsx';
import { canSee, homeFor, type SectionId } from '../lib/roles.ts';
import { SignInPage } from '../pages/sign-in.tsx';
import { Shell } from './shell.tsx';
import { useSession } from './use-session.ts';

const DashboardPage = lazy(() => import('../pages/dashboard.tsx'));
const OrdersPage = lazy(() => import('../pages/orders.tsx'));
const OrderPage = lazy(() => import('../pages/order.tsx'));
const AuditPage = lazy(() => import('../pages/audit.tsx'));
const StockPage = lazy(() => import('../pages/stock.tsx'));
const ProductsPage = lazy(() => import('../pages/products.tsx'));
const ProductPage = lazy(() => import('../pages/product.tsx'));
const PromoCodesPage = lazy(() => import('../pages/promo-codes.tsx'));
const CustomersPage = lazy(() => import('../pages/customers.tsx'));
const CustomerPage = lazy(() => import('../pages/customer.tsx'));
const StaffPage = lazy(() => import('../pages/staff.tsx'));

function Loading() {
  const { t } = useI18n();
  return (
    <p className="muted" role="status">
      {t('common.loading')}
    </p>
  );
}

/** A page the signed-in role may open; any other role is sent to its own first page. */
function Allowed({ section, children }: { section: SectionId; children: ReactNode }) {
  const { session } = useSession();
  if (!session) return null;
  if (!canSee(session.staff.role, section)) return <Navigate to={`/${homeFor(session.staff.role)}`} replace />;
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

export function ConsoleRoutes() {
  const { session } = useSession();
  const location = useLocation();
  const queryClient = useQueryClient();

  // One staff member's data never shows to the next who signs in at this tab.
  useEffect(() => {
    if (!session) queryClient.clear();
  }, [session, queryClient]);

  if (!session) {
    if (location.pathname !== '/sign-in') {
      const from = location.pathname + location.search;
      return <Navigate to="/sign-in" replace state={{ from }} />;
    }
    return <SignInPage />;
  }

  const home = `/${homeFor(session.staff.role)}`;
  // Signed in at last: on to the page that asked for it, or the role's first page.
  const from = (location.state as { from?: string } | null)?.from;
  const afterSignIn = from && !from.startsWith('/sign-in') ? from : home;
  return (
    <Routes>
      <Route path="/sign-in" element={<Navigate to={afterSignIn} replace />} />
      <Route element={<Shell />}>
        <Route path="/" element={<Navigate to={home} replace />} />
        <Route
          path="/dashboard"
          element={
            <Allowed section="dashboard">
              <DashboardPage />
            </Allowed>
          }
        />
        <Route
          path="/orders"
          element={
            <Allowed section="orders">
              <OrdersPage />
            </Allowed>
          }
        />
        <Route
          path="/orders/:id"
          element={
            <Allowed section="orders">
              <OrderPage />
            </Allowed>
          }
        />
        <Route
          path="/audit"
          element={
            <Allowed section="audit">
              <AuditPage />
            </Allowed>
          }
        />
        <Route
          path="/stock"
          element={
            <Allowed section="stock">
              <StockPage />
            </Allowed>
          }
        />
        <Route
          path="/products"
          element={
            <Allowed section="products">
              <ProductsPage />
            </Allowed>
          }
        />
        <Route
          path="/products/:id"
          element={
            <Allowed section="products">
              <ProductPage />
            </Allowed>
          }
        />
        <Route
          path="/promo-codes"
          element={
            <Allowed section="promo">
              <PromoCodesPage />
            </Allowed>
          }
        />
        <Route
          path="/customers"
          element={
            <Allowed section="customers">
              <CustomersPage />
            </Allowed>
          }
        />
        <Route
          path="/customers/:id"
          element={
            <Allowed section="customers">
              <CustomerPage />
            </Allowed>
          }
        />
        <Route
          path="/staff"
          element={
            <Allowed section="staff">
              <StaffPage />
            </Allowed>
          }
        />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

function NotFound() {
  const { t } = useI18n();
  return <p className="empty">{t('common.notFound')}</p>;
}
