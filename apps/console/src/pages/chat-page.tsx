import { Grid, NavLink, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { reachableAgents } from '../chat/chat-api';
import { Conversation } from '../chat/conversation';
import { ErrorAlert } from '../components/error-alert';

/** D43: a person chats with the agents they may reach (their USER_TO_AGENT subscriptions). */
export function ChatPage() {
  const agents = useQuery({ queryKey: ['reachable-agents'], queryFn: reachableAgents });
  const [selectedId, setSelectedId] = useState<string>();
  const selected = agents.data?.items.find((agent) => agent.id === selectedId);

  return (
    <Stack>
      <Title order={2}>Chat with agents</Title>
      <Text>
        Every message goes through the platform&apos;s policies both ways: a message may be masked,
        held for a reviewer or blocked, and the conversation says so.
      </Text>
      <ErrorAlert error={agents.error} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <nav aria-label="Agents">
            {agents.data?.items.map((agent) => (
              <NavLink
                key={agent.id}
                component="button"
                label={agent.name}
                active={agent.id === selectedId}
                variant="filled"
                onClick={() => setSelectedId(agent.id)}
              />
            ))}
          </nav>
          {agents.data && agents.data.items.length === 0 ? (
            <Text>No agent is open to you yet: an administrator subscribes you to one.</Text>
          ) : null}
          {agents.isLoading ? <Text>Loading…</Text> : null}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          {selected ? (
            <Conversation key={selected.id} agent={selected} />
          ) : (
            <Text>Choose an agent to talk to.</Text>
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
