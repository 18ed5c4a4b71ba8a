import { useQuery } from '@tanstack/react-query';

import { registry } from '../api/registry-api';

export interface EndpointOption {
  value: string;
  label: string;
}

/** The registry's agents, MCP servers and LLM gateways as choices, and a name for any id. */
export function useEndpoints(): {
  agents: EndpointOption[];
  mcpServers: EndpointOption[];
  llmGateways: EndpointOption[];
  nameOf: (id: string) => string;
} {
  const toOptions = (page?: { items: Array<{ id: string; name: string }> }) =>
    (page?.items ?? []).map((e) => ({ value: e.id, label: e.name }));
  const agents = toOptions(useQuery({ queryKey: ['agents'], queryFn: registry.agents }).data);
  const mcpServers = toOptions(
    useQuery({ queryKey: ['mcp-servers'], queryFn: registry.mcpServers }).data,
  );
  const llmGateways = toOptions(
    useQuery({ queryKey: ['llm-gateways'], queryFn: registry.llmGateways }).data,
  );
  const all = [...agents, ...mcpServers, ...llmGateways];
  return {
    agents,
    mcpServers,
    llmGateways,
    nameOf: (id) => all.find((e) => e.value === id)?.label ?? id,
  };
}
