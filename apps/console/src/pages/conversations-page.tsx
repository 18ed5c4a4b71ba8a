import { Badge, Button, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import { ConversationFilters, conversations } from '../api/conversations-api';
import { ErrorAlert } from '../components/error-alert';
import { When } from '../components/when';

const KEY_LABELS: Record<string, string> = {
  A2A_CONTEXT: 'A2A context',
  MCP_SESSION: 'MCP session',
  CHANNEL_THREAD: 'Channel thread',
  CORRELATION: 'Correlation id',
};

/** D44, D57: the tenant's conversations, newest first, filtered by who took part. */
export function ConversationsPage() {
  const [params] = useSearchParams();
  // A channel's page links here with its id: the list opens filtered by it.
  const initial: ConversationFilters = params.get('channelId')
    ? { channelId: params.get('channelId')! }
    : {};
  const [draft, setDraft] = useState<ConversationFilters>(initial);
  const [filters, setFilters] = useState<ConversationFilters>(initial);
  const list = useInfiniteQuery({
    queryKey: ['conversations', filters],
    queryFn: ({ pageParam }) => conversations.list(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const set = (key: keyof ConversationFilters) => (value: string) =>
    setDraft((d) => ({ ...d, [key]: value.trim() || undefined }));

  return (
    <Stack>
      <Title order={2}>Conversations</Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(draft);
        }}
      >
        <Group align="end">
          <TextInput label="Agent id" onChange={(e) => set('agentId')(e.currentTarget.value)} />
          <TextInput label="User id" onChange={(e) => set('userId')(e.currentTarget.value)} />
          <TextInput
            label="Channel id"
            defaultValue={initial.channelId}
            onChange={(e) => set('channelId')(e.currentTarget.value)}
          />
          <TextInput
            label="MCP server id"
            onChange={(e) => set('mcpServerId')(e.currentTarget.value)}
          />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      <ErrorAlert error={list.error} />
      {list.isSuccess && items.length === 0 ? <Text>No conversations yet.</Text> : null}
      <Table aria-label="Conversations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Started</Table.Th>
            <Table.Th>Kept by</Table.Th>
            <Table.Th>Paths</Table.Th>
            <Table.Th>Messages</Table.Th>
            <Table.Th>Last message</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td>
                <Link to={`/conversations/${c.id}`}>
                  <When at={c.startedAt} />
                </Link>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{KEY_LABELS[c.keyKind] ?? c.keyKind}</Text>
                <Code>{c.key.slice(0, 40)}</Code>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {c.protocols.map((p) => (
                    <Badge key={p} variant="outline" color="dark">
                      {p}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{c.hopCount}</Table.Td>
              <Table.Td>
                <When at={c.lastAt} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {list.hasNextPage ? (
        <Button variant="outline" onClick={() => void list.fetchNextPage()}>
          More
        </Button>
      ) : null}
    </Stack>
  );
}
