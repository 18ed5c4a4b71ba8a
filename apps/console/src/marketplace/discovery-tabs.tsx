import { Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { DiscoveryQuery, marketplaceApi } from '../api/marketplace-api';
import { ErrorAlert } from '../components/error-alert';

/** The facets each kind takes (DS4: MCP tools have no tags nor media modes). */
const AGENT_FACETS = ['skill', 'tag', 'capability', 'inputMode', 'outputMode'] as const;
const MCP_FACETS = ['tool', 'capability'] as const;
type Facet = (typeof AGENT_FACETS)[number] | (typeof MCP_FACETS)[number];

const FACET_LABELS: Record<Facet, string> = {
  skill: 'Skill',
  tag: 'Tag',
  capability: 'Capability',
  inputMode: 'Input mode',
  outputMode: 'Output mode',
  tool: 'Tool',
};

/** Free text and the exact facets, applied when the form is sent (DS3, DS5). */
function SearchForm({
  facets,
  label,
  onSearch,
}: {
  facets: readonly Facet[];
  label: string;
  onSearch: (query: DiscoveryQuery) => void;
}) {
  const [draft, setDraft] = useState<DiscoveryQuery>({});
  return (
    <form
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(draft);
      }}
    >
      <Group align="end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="what it should do"
          value={draft.q ?? ''}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setDraft((d) => ({ ...d, q: value }));
          }}
        />
        {facets.map((facet) => (
          <TextInput
            key={facet}
            label={FACET_LABELS[facet]}
            w={140}
            value={draft[facet] ?? ''}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setDraft((d) => ({ ...d, [facet]: value }));
            }}
          />
        ))}
        <Button type="submit">Search</Button>
      </Group>
    </form>
  );
}

/** DS1, DS7: the tenant's agents by skill, tag, capability and modes, as the user may see. */
export function DiscoverAgentsTab() {
  const [filters, setFilters] = useState<DiscoveryQuery>({});
  const found = useQuery({
    queryKey: ['discovery', 'agents', filters],
    queryFn: () => marketplaceApi.agents(filters),
  });
  return (
    <Stack>
      <SearchForm facets={AGENT_FACETS} label="Search agents" onSearch={setFilters} />
      <ErrorAlert error={found.error} />
      <Table striped aria-label="Agents found">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Skills</Table.Th>
            <Table.Th>Visibility</Table.Th>
            <Table.Th>Score</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(found.data?.items ?? []).map((agent) => (
            <Table.Tr key={agent.id}>
              <Table.Td>{agent.name}</Table.Td>
              <Table.Td>{agent.description ?? ''}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {agent.skills.map((s) => (
                    <Badge key={s.id ?? s.name} variant="light">
                      {s.name ?? s.id}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{agent.visibility}</Table.Td>
              <Table.Td>{agent.score.toFixed(2)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {found.data && found.data.items.length === 0 ? <Text c="dimmed">No agent found.</Text> : null}
    </Stack>
  );
}

/** DS1, DS4: the tenant's MCP servers by tool, capability and free text. */
export function DiscoverMcpServersTab() {
  const [filters, setFilters] = useState<DiscoveryQuery>({});
  const found = useQuery({
    queryKey: ['discovery', 'mcp-servers', filters],
    queryFn: () => marketplaceApi.mcpServers(filters),
  });
  return (
    <Stack>
      <SearchForm facets={MCP_FACETS} label="Search MCP servers" onSearch={setFilters} />
      <ErrorAlert error={found.error} />
      <Table striped aria-label="MCP servers found">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Tools</Table.Th>
            <Table.Th>Relay address</Table.Th>
            <Table.Th>Score</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(found.data?.items ?? []).map((server) => (
            <Table.Tr key={server.id}>
              <Table.Td>{server.name}</Table.Td>
              <Table.Td>{server.description ?? ''}</Table.Td>
              <Table.Td>{server.tools.join(', ')}</Table.Td>
              <Table.Td>{server.relayUrl}</Table.Td>
              <Table.Td>{server.score.toFixed(2)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {found.data && found.data.items.length === 0 ? (
        <Text c="dimmed">No MCP server found.</Text>
      ) : null}
    </Stack>
  );
}
