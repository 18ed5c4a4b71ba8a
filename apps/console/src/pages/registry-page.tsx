import { PermissionTab, PermissionTabs } from '../components/permission-tabs';
import { AgentsTab } from '../registry/agents-tab';
import { KillSwitchesTab } from '../registry/kill-switches-tab';
import { LlmGatewaysTab } from '../registry/llm-gateways-tab';
import { McpServersTab } from '../registry/mcp-servers-tab';
import { SubscriptionsTab } from '../registry/subscriptions-tab';

/** The entities each tab reads are those the relay's and tenant-auth's routes require. */
export const REGISTRY_TABS: PermissionTab[] = [
  { value: 'agents', label: 'Agents', needs: ['REGISTRY', 'READ'], panel: AgentsTab },
  { value: 'mcp', label: 'MCP servers', needs: ['MCP_REGISTRY', 'READ'], panel: McpServersTab },
  { value: 'llm', label: 'LLM gateways', needs: ['LLM_GATEWAY', 'READ'], panel: LlmGatewaysTab },
  {
    value: 'subscriptions',
    label: 'Subscriptions and grants',
    needs: ['REGISTRY', 'READ'],
    panel: SubscriptionsTab,
  },
  { value: 'kill', label: 'Kill switches', needs: ['TENANT', 'ADMIN'], panel: KillSwitchesTab },
];

export function RegistryPage() {
  return <PermissionTabs title="Registry" tabs={REGISTRY_TABS} />;
}
