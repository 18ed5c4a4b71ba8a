import { Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';

import type { NotificationTargetResponse } from '../api/contracts/relay';
import { notifications } from '../api/notifications-api';
import { SUCCESS_COLOR } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';
import { When } from '../components/when';

// Dark shades: white text on each keeps WCAG AA contrast (action-badge.tsx).
const STATUS_COLORS = { DELIVERED: SUCCESS_COLOR, PENDING: 'gray.8', FAILED: 'red.9' } as const;

/** D58: one target's deliveries, newest first, with their outcome and last error. */
export function NotificationDeliveries({ target }: { target: NotificationTargetResponse }) {
  const deliveries = useQuery({
    queryKey: ['notification-targets', target.id, 'deliveries'],
    queryFn: () => notifications.deliveries(target.id),
    refetchInterval: 10_000,
  });
  const items = deliveries.data?.items ?? [];
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Deliveries to {target.name}
      </Title>
      <ErrorAlert error={deliveries.error} />
      {items.length ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label={`Deliveries to ${target.name}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Created</Table.Th>
                <Table.Th>Event</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Last error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>
                    <When at={d.createdAt} />
                  </Table.Td>
                  <Table.Td>{d.event}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[d.status]}>{d.status}</Badge>
                  </Table.Td>
                  <Table.Td>{d.attemptCount}</Table.Td>
                  <Table.Td>{d.lastError ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed">{deliveries.isLoading ? 'Loading…' : 'Nothing sent yet.'}</Text>
      )}
    </Stack>
  );
}
