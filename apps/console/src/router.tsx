import { createBrowserRouter } from 'react-router-dom';

import { AppLayout } from './layout/app-layout';
import { AlertsPage } from './pages/alerts-page';
import { CallbackPage } from './pages/callback-page';
import { OverviewPage } from './pages/overview-page';

export const router = createBrowserRouter([
  { path: '/auth/callback', element: <CallbackPage /> },
  {
    path: '/',
    element: <AppLayout />,
    children: [
      { index: true, element: <OverviewPage /> },
      { path: 'alerts', element: <AlertsPage /> },
    ],
  },
]);
