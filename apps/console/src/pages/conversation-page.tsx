import { Button, Card, Code, Group, Stack, Text, Textarea, Timeline, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router-dom';

import type { ConversationMessageResponse, EventParty } from '../api/contracts/relay';
import { conversations } from '../api/conversations-api';
import { useAction } from '../api/use-action';
import { SeverityBadge } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';
import { When } from '../components/when';
import { useCan } from '../layout/permissions';

function partyOf(party: EventParty): string {
  return `${party.label ?? party.id ?? '—'} (${party.type.toLowerCase().replace('_', ' ')})`;
}

/** D40: the masked content when the tenant captures it, else only its digest. */
function Content({ message }: { message: ConversationMessageResponse }) {
  if (message.content !== undefined) {
    return (
      <Code block mt="xs">
        {JSON.stringify(message.content, null, 2)}
      </Code>
    );
  }
  return <Text size="sm">Content not captured; SHA-256 {message.contentDigest ?? '—'}</Text>;
}

/** D57: one conversation hop by hop, and an operator's message into it (D44). */
export function ConversationPage() {
  const { conversationId = '' } = useParams();
  const [text, setText] = useState('');
  const mayWrite = useCan('AGENT_CONVERSATIONS', 'WRITE');
  const key = ['conversation', conversationId];
  const read = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => conversations.get(conversationId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const send = useAction(() => conversations.post(conversationId, text), key);
  const first = read.data?.pages[0];
  const messages = read.data?.pages.flatMap((page) => page.messages) ?? [];

  return (
    <Stack>
      <Title order={2}>Conversation</Title>
      <ErrorAlert error={read.error} />
      {first ? (
        <Text>
          Started <When at={first.startedAt} />, {first.hopCount} messages over{' '}
          {first.protocols.join(', ')}; kept by <Code>{first.keyKind}</Code>{' '}
          <Code>{first.key}</Code>
        </Text>
      ) : null}
      <Timeline bulletSize={18} lineWidth={2} aria-label="Messages">
        {messages.map((m) => (
          <Timeline.Item
            key={m.id}
            title={
              <Group gap="xs">
                <Text fw={600}>
                  {m.direction ?? 'MESSAGE'} · {m.protocol}
                  {m.toolName ? ` · ${m.toolName}` : ''}
                </Text>
                <SeverityBadge value={m.decision.action} />
              </Group>
            }
          >
            <Card withBorder mt="xs">
              <Text size="sm">
                <When at={m.at} /> · {partyOf(m.source)} → {partyOf(m.sink)}
              </Text>
              {m.decision.reasons.length > 0 ? (
                <Text size="sm">Reasons: {m.decision.reasons.join('; ')}</Text>
              ) : null}
              <Content message={m} />
            </Card>
          </Timeline.Item>
        ))}
      </Timeline>
      {read.hasNextPage ? (
        <Button variant="outline" onClick={() => void read.fetchNextPage()}>
          Older messages
        </Button>
      ) : null}
      {mayWrite ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            send.mutate(undefined, { onSuccess: () => setText('') });
          }}
        >
          <Stack gap="xs">
            <Textarea
              label="Message from an operator"
              description="Judged by the tenant's policies, then delivered once into this conversation."
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              required
            />
            <ErrorAlert error={send.error} />
            {send.data ? (
              <Text size="sm" role="status">
                Delivered ({send.data.deliveredVia}, {send.data.decision.action})
                {send.data.reply ? `; the agent answered: ${send.data.reply}` : ''}
              </Text>
            ) : null}
            <Group>
              <Button type="submit" loading={send.isPending}>
                Send
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Stack>
  );
}
