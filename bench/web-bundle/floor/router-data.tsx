import { createBrowserRouter, RouterProvider } from 'react-router-dom';

const router = createBrowserRouter([{ path: '/', lazy: () => import('./home.tsx') }]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
