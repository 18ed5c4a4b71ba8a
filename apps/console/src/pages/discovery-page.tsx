import { PermissionTab, PermissionTabs } from '../components/permission-tabs';
import { DISCOVERY_NEEDS } from '../layout/tab-needs';
import { DiscoverAgentsTab, DiscoverMcpServersTab } from '../marketplace/discovery-tabs';

const DISCOVERY_TABS: PermissionTab[] = [
  { value: 'agents', label: 'Agents', needs: DISCOVERY_NEEDS.agents, panel: DiscoverAgentsTab },
  { value: 'mcp', label: 'MCP servers', needs: DISCOVERY_NEEDS.mcp, panel: DiscoverMcpServersTab },
];

/** Issue 40 item 1: agents and MCP servers found by what they can do (discovery.md DS1–DS7). */
export function DiscoveryPage() {
  return <PermissionTabs title="Discovery" tabs={DISCOVERY_TABS} />;
}
