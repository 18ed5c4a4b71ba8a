import { AppShell, Burger, Button, Group, Loader, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router-dom';

import { platform } from '../api/platform';
import { isSignedIn, signIn, signOut } from '../auth/session';
import { PermissionsContext, can } from './permissions';
import {
  ADMIN_NEEDS,
  DISCOVERY_NEEDS,
  MARKETPLACE_NEEDS,
  REGISTRY_NEEDS,
  TabNeeds,
} from './tab-needs';

/**
 * Each page and what lets the caller read it (any one of its tabs, for the tabbed pages); no
 * needs: every signed-in person (the chat shows only the agents they are subscribed to, D43).
 */
const PAGES: Array<{ to: string; label: string; needs: TabNeeds[] }> = [
  { to: '/', label: 'Overview', needs: [['AUDIT', 'READ']] },
  { to: '/alerts', label: 'Alerts', needs: [['AUDIT', 'READ']] },
  { to: '/audit', label: 'Audit', needs: [['AUDIT', 'READ']] },
  { to: '/telemetry', label: 'Telemetry', needs: [['TELEMETRY', 'READ']] },
  { to: '/spend', label: 'Spend', needs: [['BILLING', 'READ']] },
  { to: '/review', label: 'Human review', needs: [['HITL_REQUESTS', 'READ']] },
  {
    to: '/conversations',
    label: 'Conversations',
    needs: [
      ['AGENT_CONVERSATIONS', 'READ'],
      ['MCP_CONVERSATIONS', 'READ'],
    ],
  },
  { to: '/channels', label: 'Channels', needs: [['CHANNELS', 'READ']] },
  { to: '/policies', label: 'Policies', needs: [['TENANT', 'READ']] },
  { to: '/registry', label: 'Registry', needs: Object.values(REGISTRY_NEEDS) },
  { to: '/discovery', label: 'Discovery', needs: Object.values(DISCOVERY_NEEDS) },
  { to: '/marketplace', label: 'Marketplace', needs: Object.values(MARKETPLACE_NEEDS) },
  { to: '/admin', label: 'Administration', needs: Object.values(ADMIN_NEEDS) },
  { to: '/chat', label: 'Chat with agents', needs: [] },
];

/** The frame of every page: navigation (only what the caller may read), the user's sign-out. */
export function AppLayout() {
  const [ready, setReady] = useState(isSignedIn());
  const [opened, { toggle }] = useDisclosure();
  const location = useLocation();

  useEffect(() => {
    if (!isSignedIn()) {
      void signIn();
    } else {
      setReady(true);
    }
  }, []);

  const permissions = useQuery({
    queryKey: ['permissions'],
    queryFn: platform.permissions,
    enabled: ready,
  });

  if (!ready || !permissions.data) {
    return <Loader m="xl" aria-label="Loading" />;
  }
  const granted = permissions.data;
  const visible = PAGES.filter(
    (page) => page.needs.length === 0 || page.needs.some((n) => can(granted, ...n)),
  );
  if (location.pathname === '/' && !visible.some((page) => page.to === '/')) {
    // A person who may only chat lands on the chat, not on an overview they may not read.
    return <Navigate to={visible[0].to} replace />;
  }
  return (
    <PermissionsContext.Provider value={granted}>
      <AppShell
        header={{ height: 56 }}
        navbar={{ width: 220, breakpoint: 'md', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between">
            <Group>
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="md"
                size="sm"
                aria-label="Menu"
              />
              <Title order={1} size="h4">
                Agent Governance Platform
              </Title>
            </Group>
            <Button variant="default" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" aria-label="Pages">
          {visible.map((page) => (
            <NavLink
              variant="filled"
              key={page.to}
              component={Link}
              to={page.to}
              label={page.label}
              active={
                page.to === '/' ? location.pathname === '/' : location.pathname.startsWith(page.to)
              }
            />
          ))}
          {granted.length === 0 ? (
            <Text size="sm" p="xs">
              Your account has no permissions yet.
            </Text>
          ) : null}
        </AppShell.Navbar>
        <AppShell.Main>
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </PermissionsContext.Provider>
  );
}
