import { Alert, Anchor, Badge, Box, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';

import type { TraceView } from '../api/contracts/audit';
import { platform } from '../api/platform';
import { ErrorAlert } from '../components/error-alert';

type TraceSpan = TraceView['spans'][number];

const STATUS_COLOR: Record<string, string> = { ERROR: 'red.9', OK: 'green.9', UNSET: 'gray.7' };

/** Where a span's bar starts and how wide it is, in percent of the whole trace. */
function barOf(span: TraceSpan, start: bigint, total: bigint): { left: number; width: number } {
  const from = BigInt(span.startTimeUnixNano) - start;
  const length = BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano);
  const scale = total > 0n ? total : 1n;
  return {
    left: Number((from * 10_000n) / scale) / 100,
    width: Math.max(0.5, Number((length * 10_000n) / scale) / 100),
  };
}

const DECISION_COLOR: Record<string, string> = { BLOCK: 'red.9', ERROR: 'red.9', WARN: 'yellow.9' };

/** A relay hop's decision (traffic.md T91), linked to its conversation in the audit trail. */
function RelayDecision({ span }: { span: TraceSpan }) {
  const action = span.attributes['agp.decision.action'];
  const correlationId = span.attributes['agp.correlation_id'];
  if (typeof action !== 'string') {
    return <Text size="sm">—</Text>;
  }
  const badge = (
    <Badge color={DECISION_COLOR[action] ?? 'gray.7'} variant="filled">
      {action}
    </Badge>
  );
  return typeof correlationId === 'string' ? (
    <Anchor
      component={Link}
      to={`/audit/traces/${correlationId}`}
      aria-label={`${action}: audit trail of ${span.name}`}
    >
      {badge}
    </Anchor>
  ) : (
    badge
  );
}

/** An agent's trace as a waterfall (issue 37 item 5): each span a bar on the trace's time line. */
export function TelemetryTracePage() {
  const { traceId = '' } = useParams();
  const trace = useQuery({
    queryKey: ['telemetry-trace', traceId],
    queryFn: () => platform.telemetryTrace(traceId),
  });
  const spans = trace.data?.spans ?? [];
  const start = spans.reduce(
    (min, s) => (BigInt(s.startTimeUnixNano) < min ? BigInt(s.startTimeUnixNano) : min),
    spans[0] ? BigInt(spans[0].startTimeUnixNano) : 0n,
  );
  const end = spans.reduce(
    (max, s) => (BigInt(s.endTimeUnixNano) > max ? BigInt(s.endTimeUnixNano) : max),
    start,
  );

  return (
    <Stack>
      <Title order={2}>Agent trace</Title>
      <Text>
        Trace id <Code>{traceId}</Code> · {spans.length} spans ·{' '}
        {(Number(end - start) / 1e6).toFixed(1)} ms
      </Text>
      <ErrorAlert error={trace.error} />
      {trace.data?.isTruncated ? (
        <Alert color="yellow.9" title="Long trace">
          Only the first spans of this trace are shown.
        </Alert>
      ) : null}
      {trace.data?.correlationIds.length ? (
        <Group gap="xs">
          <Text size="sm">Audit trail:</Text>
          {trace.data.correlationIds.map((id) => (
            <Anchor key={id} component={Link} to={`/audit/traces/${id}`} size="sm">
              {id}
            </Anchor>
          ))}
        </Group>
      ) : null}
      <Table aria-label="Spans" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="30%">Span</Table.Th>
            <Table.Th w="13%">Service</Table.Th>
            <Table.Th w="9%">Status</Table.Th>
            <Table.Th w="12%">Relay decision</Table.Th>
            <Table.Th>Time line</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {spans.map((span) => {
            const bar = barOf(span, start, end - start);
            return (
              <Table.Tr key={`${span.spanId}-${span.depth}`}>
                <Table.Td>
                  <Text size="sm" pl={span.depth * 16} truncate="end" title={span.name}>
                    {span.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" truncate="end">
                    {span.serviceName ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLOR[span.status.code]} variant="filled">
                    {span.status.code}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <RelayDecision span={span} />
                </Table.Td>
                <Table.Td>
                  <Box
                    pos="relative"
                    h={18}
                    role="img"
                    aria-label={`${span.name}: ${span.durationMs} ms`}
                  >
                    <Box
                      pos="absolute"
                      top={3}
                      h={12}
                      bg={span.status.code === 'ERROR' ? 'red.9' : 'blue.9'}
                      style={{ left: `${bar.left}%`, width: `${bar.width}%`, borderRadius: 2 }}
                    />
                  </Box>
                  <Text size="xs">{span.durationMs.toFixed(2)} ms</Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
