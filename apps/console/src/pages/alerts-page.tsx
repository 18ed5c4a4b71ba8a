import { Alert, Badge, Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AlertStatus, Severity } from '@agp/contracts';

import { platform } from '../api/platform';
import { useCan } from '../layout/permissions';

const STATUSES: AlertStatus[] = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED', 'DISMISSED'];
const SEVERITIES: Severity[] = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];

/** D14: the alert list with its filters and the lifecycle actions the caller may take. */
export function AlertsPage() {
  const [status, setStatus] = useState<AlertStatus | null>('OPEN');
  const [severity, setSeverity] = useState<Severity | null>(null);
  const mayWrite = useCan('AUDIT', 'WRITE');
  const client = useQueryClient();
  const alerts = useQuery({
    queryKey: ['alerts', status, severity],
    queryFn: () =>
      platform.alerts({ status: status ?? undefined, severity: severity ?? undefined }),
  });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'acknowledge' | 'resolve' | 'reopen' }) =>
      platform.alertAction(id, action),
    onSuccess: () => client.invalidateQueries({ queryKey: ['alerts'] }),
  });

  return (
    <Stack>
      <Title order={2}>Alerts</Title>
      <Group>
        <Select
          label="Status"
          data={STATUSES}
          value={status}
          onChange={(v) => setStatus(v)}
          clearable
        />
        <Select
          label="Severity"
          data={SEVERITIES}
          value={severity}
          onChange={(v) => setSeverity(v)}
          clearable
        />
      </Group>
      {act.error ? (
        <Alert color="red" title="The action failed">
          {act.error.message}
        </Alert>
      ) : null}
      {alerts.data?.items.length ? (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Severity</Table.Th>
              <Table.Th>Detector</Table.Th>
              <Table.Th>Summary</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Detected</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
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
                <Table.Td>{alert.status}</Table.Td>
                <Table.Td>{new Date(alert.detectedAt).toLocaleString()}</Table.Td>
                <Table.Td>
                  {mayWrite ? (
                    <Group gap="xs">
                      {alert.status === 'OPEN' ? (
                        <Button
                          size="xs"
                          onClick={() => act.mutate({ id: alert.id, action: 'acknowledge' })}
                        >
                          Acknowledge
                        </Button>
                      ) : null}
                      {alert.status === 'OPEN' || alert.status === 'ACKNOWLEDGED' ? (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => act.mutate({ id: alert.id, action: 'resolve' })}
                        >
                          Resolve
                        </Button>
                      ) : null}
                      {alert.status === 'RESOLVED' || alert.status === 'DISMISSED' ? (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => act.mutate({ id: alert.id, action: 'reopen' })}
                        >
                          Reopen
                        </Button>
                      ) : null}
                    </Group>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">{alerts.isLoading ? 'Loading…' : 'No alerts match these filters.'}</Text>
      )}
    </Stack>
  );
}
