import { Badge, Button, Card, Code, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';

import { SUCCESS_COLOR, WARNING_COLOR } from '../components/action-badge';
import { ErrorAlert } from '../components/error-alert';
import { OutgoingMessage, ReachableAgent, sendToAgent } from './chat-api';
import { ChatTurn, contextIdOf, turnOf } from './chat-turns';

/** How each kind of turn is labelled and coloured (dark shades: AA contrast under white text). */
const LOOKS: Record<ChatTurn['kind'], { label: (agent: string) => string; color: string }> = {
  person: { label: () => 'You', color: 'blue.9' },
  agent: { label: (agent) => agent, color: SUCCESS_COLOR },
  held: { label: () => 'Held for review', color: WARNING_COLOR },
  refused: { label: () => 'Not delivered', color: 'red.9' },
  failed: { label: () => 'Failed', color: 'red.9' },
};

/**
 * A person's conversation with one agent (D43): each message goes through the relay's human path,
 * judged both ways; what a policy held, blocked or masked is shown as such. A held message is
 * delivered by sending it again once a reviewer approved it (D34).
 */
export function Conversation({ agent }: { agent: ReachableAgent }) {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [outgoing, setOutgoing] = useState<Record<string, OutgoingMessage>>({});
  const [contextId, setContextId] = useState<string>();
  const [draft, setDraft] = useState('');

  const send = useMutation({
    mutationFn: async (message: OutgoingMessage) => ({
      message,
      reply: await sendToAgent(message),
    }),
    onSuccess: ({ message, reply }) => {
      setContextId((current) => current ?? contextIdOf(reply));
      const turn = turnOf(`${message.messageId}:${Date.now()}`, reply);
      setTurns((current) => [
        // A resend settles the hold it names: the hold is replaced by what became of it.
        ...current.filter(
          (t) =>
            !(
              message.hitlRequestId &&
              t.kind === 'held' &&
              t.hitlRequestId === message.hitlRequestId
            ),
        ),
        turn,
      ]);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) {
      return;
    }
    const message: OutgoingMessage = {
      agentId: agent.id,
      messageId: crypto.randomUUID(),
      text,
      ...(contextId ? { contextId } : {}),
    };
    setOutgoing((current) => ({ ...current, [message.messageId]: message }));
    setTurns((current) => [...current, { kind: 'person', id: message.messageId, text }]);
    setDraft('');
    send.mutate(message);
  };

  const deliver = (turn: Extract<ChatTurn, { kind: 'held' }>) => {
    const original = outgoing[turn.id.split(':')[0]];
    if (original) {
      send.mutate({ ...original, hitlRequestId: turn.hitlRequestId });
    }
  };

  return (
    <Card withBorder>
      <Stack>
        <Text fw={700}>{agent.name}</Text>
        {agent.description ? <Text size="sm">{agent.description}</Text> : null}
        {/* The log is the live region; the list inside keeps its list semantics (axe). */}
        <div role="log" aria-label="Conversation" aria-live="polite">
          <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
            {turns.length === 0 ? (
              <Text component="li" c="dimmed">
                No messages yet.
              </Text>
            ) : null}
            {turns.map((turn) => (
              <Card component="li" key={turn.id} withBorder padding="sm">
                <Stack gap={4}>
                  <Group gap="xs">
                    <Badge color={LOOKS[turn.kind].color}>
                      {LOOKS[turn.kind].label(agent.name)}
                    </Badge>
                    {turn.kind === 'agent' && turn.state ? (
                      <Text size="sm">{turn.state}</Text>
                    ) : null}
                    {turn.kind === 'agent' && turn.isMarked ? (
                      <Badge variant="outline" color="gray.8">
                        AI-generated
                      </Badge>
                    ) : null}
                  </Group>
                  {turn.kind === 'agent' && turn.disclosure ? (
                    <Text size="sm" fs="italic" role="note" aria-label="AI disclosure">
                      {turn.disclosure}
                    </Text>
                  ) : null}
                  <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {turn.text}
                  </Text>
                  {(turn.kind === 'held' || turn.kind === 'refused') && turn.reasons.length > 0 ? (
                    <List size="sm">
                      {turn.reasons.map((reason) => (
                        <List.Item key={reason}>{reason}</List.Item>
                      ))}
                    </List>
                  ) : null}
                  {turn.kind === 'held' ? (
                    <Group gap="xs">
                      <Text size="sm">
                        Request <Code>{turn.hitlRequestId}</Code>
                      </Text>
                      <Button
                        size="compact-sm"
                        variant="default"
                        onClick={() => deliver(turn)}
                        loading={send.isPending}
                      >
                        Deliver once approved
                      </Button>
                    </Group>
                  ) : null}
                </Stack>
              </Card>
            ))}
          </Stack>
        </div>
        <ErrorAlert error={send.error} />
        <form onSubmit={submit}>
          <Stack gap="xs">
            <Textarea
              label="Message"
              value={draft}
              onChange={(event) => setDraft(event.currentTarget.value)}
              autosize
              minRows={2}
            />
            <Group>
              <Button type="submit" loading={send.isPending} disabled={!draft.trim()}>
                Send
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
