import { Alert, Anchor, Card, Code, Group, Stack, Text, Timeline, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import { platform } from '../api/platform';
import { SeverityBadge } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';

/** One conversation hop by hop: every audit event of a correlation id, in order. */
export function TracePage() {
  const { correlationId = '' } = useParams();
  const trace = useQuery({
    queryKey: ['trace', correlationId],
    queryFn: () => platform.trace(correlationId),
  });

  return (
    <Stack>
      <Title order={2}>Trace</Title>
      <Text>
        Correlation id <Code>{correlationId}</Code>
      </Text>
      <ErrorAlert error={trace.error} />
      {trace.data?.telemetry.length ? (
        <Group gap="xs">
          <Text size="sm">Agent spans:</Text>
          {trace.data.telemetry.map((link) => (
            <Anchor
              key={link.traceId}
              component={Link}
              to={`/telemetry/traces/${link.traceId}`}
              size="sm"
            >
              {link.traceId} ({link.spans} spans)
            </Anchor>
          ))}
        </Group>
      ) : null}
      {trace.data?.isTruncated ? (
        <Alert color="yellow.9" title="Long trace">
          Only the first events of this trace are shown.
        </Alert>
      ) : null}
      <Timeline bulletSize={18} lineWidth={2}>
        {(trace.data?.items ?? []).map((hop) => (
          <Timeline.Item
            key={hop.id}
            title={
              <Group gap="xs">
                <Text fw={600}>{hop.eventType}</Text>
                <SeverityBadge value={hop.action} />
              </Group>
            }
          >
            <Card withBorder mt="xs">
              <Text size="sm">
                {new Date(hop.occurredAt).toLocaleString()} · {hop.protocol ?? ''}
              </Text>
              <Text size="sm">
                {hop.source?.name ?? hop.source?.type ?? '—'} →{' '}
                {hop.sink?.name ?? hop.sink?.type ?? '—'}
              </Text>
              {hop.summary ? <Text size="sm">{hop.summary}</Text> : null}
              {hop.decision ? (
                <Code block mt="xs">
                  {JSON.stringify(hop.decision, null, 2)}
                </Code>
              ) : null}
            </Card>
          </Timeline.Item>
        ))}
      </Timeline>
    </Stack>
  );
}
