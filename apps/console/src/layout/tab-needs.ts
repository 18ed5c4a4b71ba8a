import type { PermissionEntry } from '../api/platform';

/** What the caller must hold to see a tab: the entity and permission its routes require. */
export type TabNeeds = [entity: string, permission: PermissionEntry['permission']];

// Apart from the pages' code, so the navigation knows which pages to offer without loading them.
/** The registry's tabs: the relay's and tenant-auth's routes. */
export const REGISTRY_NEEDS = {
  agents: ['REGISTRY', 'READ'],
  mcp: ['MCP_REGISTRY', 'READ'],
  // D39: providers are under the gateways' permission, as the relay's routes are.
  llmProviders: ['LLM_GATEWAY', 'READ'],
  llm: ['LLM_GATEWAY', 'READ'],
  subscriptions: ['REGISTRY', 'READ'],
  kill: ['TENANT', 'ADMIN'],
} satisfies Record<string, TabNeeds>;

/** The administration's tabs: tenant-auth's, the audit's and the relay's notification routes. */
export const ADMIN_NEEDS = {
  users: ['USERS', 'READ'],
  groups: ['GROUPS', 'READ'],
  roles: ['TENANT', 'READ'],
  idp: ['IDENTITY_PROVIDERS', 'READ'],
  retention: ['AUDIT', 'READ'],
  notifications: ['NOTIFICATIONS', 'READ'],
} satisfies Record<string, TabNeeds>;

/** Issue 40: discovery searches under the registries' read permissions (discovery.md DS7). */
export const DISCOVERY_NEEDS = {
  agents: ['REGISTRY', 'READ'],
  mcp: ['MCP_REGISTRY', 'READ'],
} satisfies Record<string, TabNeeds>;

/** MK13: reading the marketplace needs REGISTRY:READ; its changes check WRITE per kind. */
export const MARKETPLACE_NEEDS = {
  browse: ['REGISTRY', 'READ'],
  installed: ['REGISTRY', 'READ'],
  mine: ['REGISTRY', 'READ'],
  published: ['REGISTRY', 'READ'],
} satisfies Record<string, TabNeeds>;
