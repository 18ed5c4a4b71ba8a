import { createBrowserRouter } from 'react-router-dom';

import { AppLayout } from './layout/app-layout';

// Each page is its own chunk, loaded when its route is first visited: the first page loads the
// layout and the overview only, not the Rego editor (CodeMirror) or another page's code.
export const router = createBrowserRouter([
  {
    path: '/auth/callback',
    lazy: () => import('./pages/callback-page').then((m) => ({ Component: m.CallbackPage })),
  },
  {
    path: '/',
    element: <AppLayout />,
    children: [
      {
        index: true,
        lazy: () => import('./pages/overview-page').then((m) => ({ Component: m.OverviewPage })),
      },
      {
        path: 'alerts',
        lazy: () => import('./pages/alerts-page').then((m) => ({ Component: m.AlertsPage })),
      },
      {
        path: 'alerts/:alertId',
        lazy: () => import('./pages/alert-page').then((m) => ({ Component: m.AlertPage })),
      },
      {
        path: 'audit',
        lazy: () => import('./pages/audit-page').then((m) => ({ Component: m.AuditPage })),
      },
      {
        path: 'audit/traces/:correlationId',
        lazy: () => import('./pages/trace-page').then((m) => ({ Component: m.TracePage })),
      },
      {
        path: 'spend',
        lazy: () => import('./pages/spend-page').then((m) => ({ Component: m.SpendPage })),
      },
      {
        path: 'telemetry',
        lazy: () => import('./pages/telemetry-page').then((m) => ({ Component: m.TelemetryPage })),
      },
      {
        path: 'telemetry/traces/:traceId',
        lazy: () =>
          import('./pages/telemetry-trace-page').then((m) => ({ Component: m.TelemetryTracePage })),
      },
      {
        path: 'review',
        lazy: () => import('./pages/review-page').then((m) => ({ Component: m.ReviewPage })),
      },
      {
        // The link of a hold's notification (D58): opens that hold.
        path: 'review/:hitlRequestId',
        lazy: () => import('./pages/review-page').then((m) => ({ Component: m.ReviewPage })),
      },
      {
        path: 'policies',
        lazy: () => import('./pages/policies-page').then((m) => ({ Component: m.PoliciesPage })),
      },
      {
        path: 'registry',
        lazy: () => import('./pages/registry-page').then((m) => ({ Component: m.RegistryPage })),
      },
      {
        path: 'discovery',
        lazy: () => import('./pages/discovery-page').then((m) => ({ Component: m.DiscoveryPage })),
      },
      {
        path: 'marketplace',
        lazy: () =>
          import('./pages/marketplace-page').then((m) => ({ Component: m.MarketplacePage })),
      },
      {
        path: 'conversations',
        lazy: () =>
          import('./pages/conversations-page').then((m) => ({ Component: m.ConversationsPage })),
      },
      {
        path: 'conversations/:conversationId',
        lazy: () =>
          import('./pages/conversation-page').then((m) => ({ Component: m.ConversationPage })),
      },
      {
        path: 'channels',
        lazy: () => import('./pages/channels-page').then((m) => ({ Component: m.ChannelsPage })),
      },
      {
        path: 'chat',
        lazy: () => import('./pages/chat-page').then((m) => ({ Component: m.ChatPage })),
      },
      {
        path: 'admin',
        lazy: () => import('./pages/admin-page').then((m) => ({ Component: m.AdminPage })),
      },
    ],
  },
]);
