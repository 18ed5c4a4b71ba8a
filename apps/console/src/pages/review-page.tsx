import {
  Badge,
  Button,
  Card,
  Code,
  Grid,
  Group,
  List,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router-dom';

import type { HitlRequestResponse, HitlStatus } from '../api/contracts/relay';
import { platform } from '../api/platform';
import { SUCCESS_COLOR } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';
import { refusalText } from '../components/refusal-text';
import { useCan } from '../layout/permissions';

const STATUSES: HitlStatus[] = ['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED', 'RELEASED'];

/**
 * D34: the messages held for a human, each beside the policies and reasons that held it.
 * `/review/{hitlRequestId}` opens one hold whatever its status: the link a notification carries
 * (D58, docs/decisions/webhooks.md W17).
 */
export function ReviewPage() {
  const { hitlRequestId } = useParams();
  const [status, setStatus] = useState<HitlStatus>('PENDING');
  const [selectedId, setSelectedId] = useState<string | undefined>(hitlRequestId);
  const requests = useQuery({
    queryKey: ['hitl', status],
    queryFn: () => platform.hitlRequests(status),
    refetchInterval: 10_000,
  });
  const listed = requests.data?.items.find((request) => request.id === selectedId);
  // A linked hold may not be on the list shown (another status, a later page): read it alone.
  const linked = useQuery({
    queryKey: ['hitl', 'one', selectedId],
    queryFn: () => platform.hitlRequest(selectedId!),
    enabled: selectedId !== undefined && selectedId === hitlRequestId && !listed,
  });
  const selected = listed ?? (selectedId === hitlRequestId ? linked.data : undefined);

  return (
    <Stack>
      <Title order={2}>Human review</Title>
      <SegmentedControl
        aria-label="Status"
        value={status}
        onChange={(value) => {
          setStatus(value);
          setSelectedId(undefined);
        }}
        data={STATUSES}
        w="fit-content"
      />
      <ErrorAlert error={requests.error ?? linked.error} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 5 }}>
          {requests.data?.items.length ? (
            <Table highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Held</Table.Th>
                  <Table.Th>Hop</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {requests.data.items.map((request) => (
                  <Table.Tr key={request.id} bg={request.id === selectedId ? 'gray.1' : undefined}>
                    <Table.Td>
                      <Button
                        variant="default"
                        size="compact-sm"
                        onClick={() => setSelectedId(request.id)}
                      >
                        {new Date(request.createdAt).toLocaleString()}
                      </Button>
                    </Table.Td>
                    <Table.Td>
                      {request.protocol} {request.method ?? ''} {request.tool ?? ''}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Text c="dimmed">{requests.isLoading ? 'Loading…' : 'Nothing here.'}</Text>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          {selected ? (
            <HeldMessage request={selected} />
          ) : (
            <Text c="dimmed">Choose a held message.</Text>
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function HeldMessage({ request }: { request: HitlRequestResponse }) {
  const [note, setNote] = useState('');
  const mayDecide = useCan('HITL_REQUESTS', 'WRITE');
  const client = useQueryClient();
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') =>
      platform.decideHitl(request.id, decision, note || undefined),
    onSuccess: () => client.invalidateQueries({ queryKey: ['hitl'] }),
  });

  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Title order={3} size="h4">
            {request.source.name ?? request.source.type} → {request.sink.name ?? request.sink.type}
          </Title>
          <Badge color="gray.8">{request.status}</Badge>
        </Group>
        <Text size="sm">
          {request.protocol} {request.direction} {request.method ?? ''}{' '}
          {request.tool ? `tool ${request.tool}` : ''} · expires{' '}
          {new Date(request.expiresAt).toLocaleString()} · waited {request.waitedSeconds} s
        </Text>
        <div>
          <Text fw={600}>Why it was held</Text>
          <List size="sm">
            {request.reasons.map((reason) => (
              <List.Item key={reason}>{reason}</List.Item>
            ))}
          </List>
          <Text size="sm" mt="xs">
            Policies: {request.policyIds.join(', ') || '—'}
          </Text>
        </div>
        <Text size="sm" c="dimmed">
          A sender still waiting when its wait ends gets <Code>{refusalText('reviewPending')}</Code>{' '}
          and may resend once you approve; a rejection answers it{' '}
          <Code>{refusalText('reviewRejected')}</Code> (on the LLM path HTTP 409 and 403).
        </Text>
        <div>
          <Text fw={600}>The message (as it would be delivered)</Text>
          <Code block>{JSON.stringify(request.message, null, 2)}</Code>
        </div>
        {request.decidedAt ? (
          <Text size="sm">
            {request.status} by {request.decidedByLabel ?? request.decidedBy} at{' '}
            {new Date(request.decidedAt).toLocaleString()}
            {request.note ? `: ${request.note}` : ''}
          </Text>
        ) : null}
        {mayDecide && request.status === 'PENDING' ? (
          <>
            <Textarea
              label="Note"
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
              maxLength={2000}
            />
            <Group>
              <Button
                color={SUCCESS_COLOR}
                onClick={() => decide.mutate('approve')}
                loading={decide.isPending}
              >
                Approve
              </Button>
              <Button
                color="red.9"
                onClick={() => decide.mutate('reject')}
                loading={decide.isPending}
              >
                Reject
              </Button>
            </Group>
          </>
        ) : null}
        <ErrorAlert error={decide.error} />
      </Stack>
    </Card>
  );
}
