import { Anchor, Grid, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { AlertActions } from '../alerts/alert-actions';
import { AlertHistory } from '../alerts/alert-history';
import { EvidenceView } from '../alerts/evidence-view';
import { platform } from '../api/platform';
import { SeverityBadge } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';
import { When } from '../components/when';
import { useCan } from '../layout/permissions';

/** One alert (the specification's monitor alert detail): evidence, history, lifecycle actions. */
export function AlertPage() {
  const { alertId = '' } = useParams();
  const mayWrite = useCan('AUDIT', 'WRITE');
  const alert = useQuery({ queryKey: ['alerts', alertId], queryFn: () => platform.alert(alertId) });
  const a = alert.data;

  return (
    <Stack>
      <Anchor component={Link} to="/alerts">
        All alerts
      </Anchor>
      <ErrorAlert error={alert.error} />
      {a ? (
        <>
          <Group>
            <Title order={2}>{a.summary}</Title>
            <SeverityBadge value={a.severity} />
          </Group>
          <Table variant="vertical" layout="fixed" withTableBorder maw={720}>
            <Table.Tbody>
              {[
                ['Status', a.status],
                ['Detector', a.detector ?? `custom monitor ${a.monitorId ?? ''}`],
                ['Direction', a.direction],
                ['Subject', `${a.subject.type} ${a.subject.id}`],
                ['Occurrences', String(a.occurrences)],
                ['Dismissed as', a.dismissedReason ?? '—'],
                ['Acknowledged by', a.acknowledgedByLabel ?? '—'],
                ['Resolved by', a.resolvedByLabel ?? '—'],
              ].map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={220}>{label}</Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th>Detected</Table.Th>
                <Table.Td>
                  <When at={a.detectedAt} /> (last <When at={a.lastDetectedAt} />)
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Quiet until</Table.Th>
                <Table.Td>
                  <When at={a.suppressedUntil} />
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Grid>
            <Grid.Col span={{ base: 12, md: 7 }}>
              <EvidenceView evidence={a.evidence} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <Stack>
                <Title order={3} size="h4">
                  History
                </Title>
                <AlertHistory history={a.history} />
                {mayWrite ? <AlertActions alert={a} /> : null}
              </Stack>
            </Grid.Col>
          </Grid>
        </>
      ) : (
        <Text c="dimmed">{alert.isLoading ? 'Loading…' : ''}</Text>
      )}
    </Stack>
  );
}
