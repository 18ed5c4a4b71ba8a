import { Button, Code, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { LogFilters, platform } from '../api/platform';
import { ErrorAlert } from '../components/error-alert';

const SEVERITIES = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];

/** Agents' telemetry (issue 37 item 5): log search, and a trace opened by its id. */
export function TelemetryPage() {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<LogFilters>({});
  const [filters, setFilters] = useState<LogFilters>({});
  const [traceId, setTraceId] = useState('');
  const logs = useInfiniteQuery({
    queryKey: ['telemetry-logs', filters],
    queryFn: ({ pageParam }) => platform.logs(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = logs.data?.pages.flatMap((page) => page.items) ?? [];
  const set = (key: keyof LogFilters) => (value: string | null) =>
    setDraft((d) => ({ ...d, [key]: value || undefined }));

  return (
    <Stack>
      <Title order={2}>Telemetry</Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (traceId.trim()) {
            void navigate(`/telemetry/traces/${traceId.trim()}`);
          }
        }}
      >
        <Group align="end">
          <TextInput
            label="Trace id"
            value={traceId}
            onChange={(e) => setTraceId(e.currentTarget.value)}
            w={360}
          />
          <Button type="submit" variant="outline">
            Open trace
          </Button>
        </Group>
      </form>
      <Title order={3}>Logs</Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(draft);
        }}
      >
        <Group align="end">
          <TextInput label="Service" onChange={(e) => set('service')(e.currentTarget.value)} />
          <TextInput label="Agent id" onChange={(e) => set('agentId')(e.currentTarget.value)} />
          <TextInput label="Log trace id" onChange={(e) => set('traceId')(e.currentTarget.value)} />
          <Select label="Least severity" data={SEVERITIES} clearable onChange={set('severity')} />
          <TextInput
            label="Attribute (key=value)"
            onChange={(e) => set('attr')(e.currentTarget.value)}
          />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      <ErrorAlert error={logs.error} />
      <Table aria-label="Log records">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Severity</Table.Th>
            <Table.Th>Service</Table.Th>
            <Table.Th>Body</Table.Th>
            <Table.Th>Trace</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((log, i) => (
            <Table.Tr key={`${log.time}-${i}`}>
              <Table.Td>{new Date(log.time).toLocaleString()}</Table.Td>
              <Table.Td>{log.severityText ?? log.severityNumber}</Table.Td>
              <Table.Td>{log.serviceName ?? '—'}</Table.Td>
              <Table.Td>
                <Text size="sm">
                  {typeof log.body === 'string' ? log.body : JSON.stringify(log.body)}
                </Text>
              </Table.Td>
              <Table.Td>
                {log.traceId ? (
                  <Link to={`/telemetry/traces/${log.traceId}`}>
                    <Code>{log.traceId.slice(0, 8)}</Code>
                  </Link>
                ) : (
                  '—'
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {logs.hasNextPage ? (
        <Button variant="outline" onClick={() => void logs.fetchNextPage()}>
          More
        </Button>
      ) : null}
    </Stack>
  );
}
