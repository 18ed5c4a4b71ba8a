import { createBrowserRouter } from 'react-router-dom';

import { AppLayout } from './layout/app-layout';
import { AdminPage } from './pages/admin-page';
import { AlertPage } from './pages/alert-page';
import { AlertsPage } from './pages/alerts-page';
import { AuditPage } from './pages/audit-page';
import { CallbackPage } from './pages/callback-page';
import { OverviewPage } from './pages/overview-page';
import { PoliciesPage } from './pages/policies-page';
import { RegistryPage } from './pages/registry-page';
import { ReviewPage } from './pages/review-page';
import { TracePage } from './pages/trace-page';

export const router = createBrowserRouter([
  { path: '/auth/callback', element: <CallbackPage /> },
  {
    path: '/',
    element: <AppLayout />,
    children: [
      { index: true, element: <OverviewPage /> },
      { path: 'alerts', element: <AlertsPage /> },
      { path: 'alerts/:alertId', element: <AlertPage /> },
      { path: 'audit', element: <AuditPage /> },
      { path: 'audit/traces/:correlationId', element: <TracePage /> },
      { path: 'review', element: <ReviewPage /> },
      { path: 'policies', element: <PoliciesPage /> },
      { path: 'registry', element: <RegistryPage /> },
      { path: 'admin', element: <AdminPage /> },
    ],
  },
]);
