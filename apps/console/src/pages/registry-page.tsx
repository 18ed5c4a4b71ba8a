import { PermissionTab, PermissionTabs } from '../components/permission-tabs';
import { AgentsTab } from '../registry/agents-tab';
import { KillSwitchesTab } from '../registry/kill-switches-tab';
import { LlmGatewaysTab } from '../registry/llm-gateways-tab';
import { LlmProvidersTab } from '../registry/llm-providers-tab';
import { McpServersTab } from '../registry/mcp-servers-tab';
import { SubscriptionsTab } from '../registry/subscriptions-tab';
import { REGISTRY_NEEDS } from '../layout/tab-needs';

const REGISTRY_TABS: PermissionTab[] = [
  { value: 'agents', label: 'Agents', needs: REGISTRY_NEEDS.agents, panel: AgentsTab },
  { value: 'mcp', label: 'MCP servers', needs: REGISTRY_NEEDS.mcp, panel: McpServersTab },
  {
    value: 'llm-providers',
    label: 'LLM providers',
    needs: REGISTRY_NEEDS.llmProviders,
    panel: LlmProvidersTab,
  },
  { value: 'llm', label: 'LLM gateways', needs: REGISTRY_NEEDS.llm, panel: LlmGatewaysTab },
  {
    value: 'subscriptions',
    label: 'Subscriptions and grants',
    needs: REGISTRY_NEEDS.subscriptions,
    panel: SubscriptionsTab,
  },
  { value: 'kill', label: 'Kill switches', needs: REGISTRY_NEEDS.kill, panel: KillSwitchesTab },
];

export function RegistryPage() {
  return <PermissionTabs title="Registry" tabs={REGISTRY_TABS} />;
}
