import {
  Alert,
  Badge,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { TopEntry } from '../api/contracts/audit';
import type { TimeWindow } from '@agp/contracts';

import { platform } from '../api/platform';

// The charts (recharts) are their own chunk: the page's figures and lists show before they load.
const VolumeChart = lazy(() =>
  import('../overview/overview-charts').then((m) => ({ default: m.VolumeChart })),
);
const ActionsChart = lazy(() =>
  import('../overview/overview-charts').then((m) => ({ default: m.ActionsChart })),
);
const PoliciesChart = lazy(() =>
  import('../overview/overview-charts').then((m) => ({ default: m.PoliciesChart })),
);

const WINDOWS: TimeWindow[] = ['LAST_1H', 'LAST_24H', 'LAST_7D'];
const WINDOW_LABELS: Record<string, string> = {
  LAST_1H: '1 hour',
  LAST_24H: '24 hours',
  LAST_7D: '7 days',
};

/** The audit dashboard as charts, the open alerts and the messages waiting for a human. */
export function OverviewPage() {
  const [window, setWindow] = useState<TimeWindow>('LAST_24H');
  const dashboard = useQuery({
    queryKey: ['dashboard', window],
    queryFn: () => platform.dashboard(window),
  });
  const alerts = useQuery({
    queryKey: ['alerts', 'OPEN'],
    queryFn: () => platform.alerts({ status: 'OPEN', pageSize: 5 }),
  });
  const data = dashboard.data;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Overview</Title>
        <SegmentedControl
          aria-label="Time window"
          value={window}
          onChange={(value) => setWindow(value)}
          data={WINDOWS.map((value) => ({ value, label: WINDOW_LABELS[value] }))}
        />
      </Group>
      {dashboard.error ? (
        <Alert color="red" title="The dashboard could not be loaded">
          {dashboard.error.message}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Stat label="Audit events" value={data?.total} />
        <Stat label="Open alerts" value={alerts.data?.total} to="/alerts" />
        <Stat label="Pending human reviews" value={data?.pendingHitlRequests} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Card withBorder>
          <Title order={3} size="h5" mb="sm">
            Volume over the window
          </Title>
          <Suspense fallback={<Skeleton h={220} />}>
            <VolumeChart series={data?.series ?? []} />
          </Suspense>
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="sm">
            Events by action
          </Title>
          <Suspense fallback={<Skeleton h={220} />}>
            <ActionsChart byAction={data?.byAction ?? []} />
          </Suspense>
        </Card>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <TopTable title="Top agents by blocks" rows={data?.topAgents.byBlocks ?? []} />
        <TopTable title="Top MCP servers by blocks" rows={data?.topMcpServers.byBlocks ?? []} />
      </SimpleGrid>
      <TopPolicies rows={data?.topPolicies.byBlocks ?? []} />
      <Card withBorder>
        <Title order={3} size="h5" mb="sm">
          Open alerts
        </Title>
        {alerts.data?.items.length ? (
          <Table>
            <Table.Tbody>
              {alerts.data.items.map((alert) => (
                <Table.Tr key={alert.id}>
                  <Table.Td>
                    <Badge
                      color={
                        alert.severity === 'CRITICAL' || alert.severity === 'HIGH'
                          ? 'red.9'
                          : 'gray.8'
                      }
                    >
                      {alert.severity}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{alert.detector}</Table.Td>
                  <Table.Td>{alert.summary}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text c="dimmed">No open alerts.</Text>
        )}
      </Card>
    </Stack>
  );
}

function Stat({ label, value, to }: { label: string; value: number | undefined; to?: string }) {
  const body = (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value ?? '–'}
      </Text>
    </Card>
  );
  return to ? (
    <Link to={to} style={{ textDecoration: 'none', color: 'inherit' }}>
      {body}
    </Link>
  ) : (
    body
  );
}

/** The policies whose own verdict blocked the most hops: a chart, its figures for screen readers. */
function TopPolicies({ rows }: { rows: TopEntry[] }) {
  const titleId = useId();
  return (
    <Card withBorder component="section" aria-labelledby={titleId}>
      <Title order={3} size="h5" mb="sm" id={titleId}>
        Top policies by blocks
      </Title>
      {rows.length ? (
        <>
          <Suspense fallback={<Skeleton h={120} />}>
            <PoliciesChart rows={rows} />
          </Suspense>
          <VisuallyHidden>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Policy</Table.Th>
                  <Table.Th>Hops decided</Table.Th>
                  <Table.Th>Blocked</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>{row.label ?? row.id}</Table.Td>
                    <Table.Td>{row.events}</Table.Td>
                    <Table.Td>{row.blocks}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </VisuallyHidden>
        </>
      ) : (
        <Text c="dimmed">No policy blocked anything in this window.</Text>
      )}
    </Card>
  );
}

function TopTable({
  title,
  rows,
}: {
  title: string;
  rows: Array<{ id: string; label: string | null; events: number; blocks: number }>;
}) {
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {rows.length ? (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Events</Table.Th>
              <Table.Th>Blocked</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>{row.label ?? row.id}</Table.Td>
                <Table.Td>{row.events}</Table.Td>
                <Table.Td>{row.blocks}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">Nothing in this window.</Text>
      )}
    </Card>
  );
}
