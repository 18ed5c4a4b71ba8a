import {
  Button,
  Code,
  Drawer,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { ACTIONS, AUDIT_EVENT_TYPES, PROTOCOLS } from '@agp/contracts/enums';
import type { AuditEventResponseDto } from '../api/contracts/audit';
import { EventFilters, downloadExport, platform } from '../api/platform';
import { SUCCESS_COLOR, SeverityBadge } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';

/** The audit event explorer: every filter, paging by cursor, CSV export, integrity check. */
export function AuditPage() {
  const [draft, setDraft] = useState<EventFilters>({});
  const [filters, setFilters] = useState<EventFilters>({});
  const [open, setOpen] = useState<AuditEventResponseDto>();
  const events = useInfiniteQuery({
    queryKey: ['events', filters],
    queryFn: ({ pageParam }) => platform.events(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const exported = useMutation({ mutationFn: () => downloadExport(filters) });
  const verified = useMutation({
    mutationFn: () => platform.verifyIntegrity(filters.from, filters.to),
  });
  const set = (name: keyof EventFilters) => (value: string | null) =>
    setDraft((current) => ({ ...current, [name]: value ?? undefined }));
  const rows = events.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Stack>
      <Title order={2}>Audit</Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(draft);
        }}
      >
        <Group align="end" wrap="wrap">
          <Select
            label="Event type"
            data={[...AUDIT_EVENT_TYPES]}
            value={draft.eventType ?? null}
            onChange={set('eventType')}
            clearable
            searchable
          />
          <Select
            label="Protocol"
            data={[...PROTOCOLS]}
            value={draft.protocol ?? null}
            onChange={set('protocol')}
            clearable
          />
          <Select
            label="Action"
            data={[...ACTIONS]}
            value={draft.action ?? null}
            onChange={set('action')}
            clearable
          />
          <TextInput
            label="From"
            type="datetime-local"
            value={draft.from?.slice(0, 16) ?? ''}
            onChange={(e) =>
              set('from')(
                e.currentTarget.value ? new Date(e.currentTarget.value).toISOString() : null,
              )
            }
          />
          <TextInput
            label="To"
            type="datetime-local"
            value={draft.to?.slice(0, 16) ?? ''}
            onChange={(e) =>
              set('to')(
                e.currentTarget.value ? new Date(e.currentTarget.value).toISOString() : null,
              )
            }
          />
          <TextInput
            label="Correlation id"
            value={draft.correlationId ?? ''}
            onChange={(e) => set('correlationId')(e.currentTarget.value || null)}
          />
          <TextInput
            label="Actor id"
            value={draft.actorId ?? ''}
            onChange={(e) => set('actorId')(e.currentTarget.value.trim() || null)}
          />
          {/* D42: who changed what: an administrative change's target is the event's sink. */}
          <TextInput
            label="Target kind"
            placeholder="USER, ROLE, CHANNEL …"
            value={draft.sinkType ?? ''}
            onChange={(e) => set('sinkType')(e.currentTarget.value.trim().toUpperCase() || null)}
          />
          <TextInput
            label="Target id"
            value={draft.sinkId ?? ''}
            onChange={(e) => set('sinkId')(e.currentTarget.value.trim() || null)}
          />
          <Button type="submit">Apply filters</Button>
        </Group>
      </form>
      <Group>
        <Button variant="default" onClick={() => exported.mutate()} loading={exported.isPending}>
          Export CSV
        </Button>
        <Button variant="default" onClick={() => verified.mutate()} loading={verified.isPending}>
          Verify integrity
        </Button>
        {verified.data ? (
          <Text role="status" c={verified.data.verified ? SUCCESS_COLOR : 'red.9'} fw={600}>
            {verified.data.verified
              ? `Chain intact: ${verified.data.checkedCount} events, ${verified.data.checkpointsChecked} signed checkpoints checked.`
              : `Chain broken at event ${verified.data.firstBrokenEventId ?? '?'}: ${verified.data.reason ?? 'unknown reason'}.`}
          </Text>
        ) : null}
      </Group>
      <ErrorAlert error={events.error ?? exported.error ?? verified.error} />
      {/* A tablet scrolls the table, not the page. */}
      <Table.ScrollContainer minWidth={900}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Actor</Table.Th>
              <Table.Th>From → to</Table.Th>
              <Table.Th>Summary</Table.Th>
              <Table.Th>Trace</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td>
                  <Button variant="default" size="compact-sm" onClick={() => setOpen(event)}>
                    {new Date(event.occurredAt).toLocaleString()}
                  </Button>
                </Table.Td>
                <Table.Td>{event.eventType}</Table.Td>
                <Table.Td>
                  <SeverityBadge value={event.action} />
                </Table.Td>
                <Table.Td>{event.actor?.label ?? event.actor?.id ?? '—'}</Table.Td>
                <Table.Td>
                  {event.source?.name ?? event.source?.type ?? '—'} →{' '}
                  {event.sink?.name ?? event.sink?.type ?? '—'}
                </Table.Td>
                <Table.Td>{event.summary}</Table.Td>
                <Table.Td>
                  {event.correlationId ? (
                    <Link to={`/audit/traces/${encodeURIComponent(event.correlationId)}`}>
                      Trace
                    </Link>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length === 0 && !events.isLoading ? (
        <Text c="dimmed">No events match these filters.</Text>
      ) : null}
      {events.hasNextPage ? (
        <Button
          variant="default"
          onClick={() => void events.fetchNextPage()}
          loading={events.isFetchingNextPage}
        >
          Load more
        </Button>
      ) : null}
      <Drawer
        opened={open !== undefined}
        onClose={() => setOpen(undefined)}
        title="Audit event"
        position="right"
        size="lg"
      >
        {open ? <Code block>{JSON.stringify(open, null, 2)}</Code> : null}
      </Drawer>
    </Stack>
  );
}
