export const PERMISSION_ENTITIES = [
  'USERS',
  'AGENT_CONVERSATIONS',
  'AGENT_METADATA',
  'REGISTRY',
  'MCP_REGISTRY',
  'MCP_CONVERSATIONS',
  'TENANT',
  'API_KEYS',
  'AUDIT',
  'PAYMENT',
  'BILLING',
  'HITL_REQUESTS',
  'GROUPS',
  'IDENTITY_PROVIDERS',
  'INTEGRATIONS',
  'CHANNELS',
  'LLM_GATEWAY',
  'NOTIFICATIONS',
  'TELEMETRY',
] as const;
export type PermissionEntity = (typeof PERMISSION_ENTITIES)[number];

export const PERMISSIONS = ['READ', 'WRITE', 'DELETE', 'ADMIN'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** A role string, `ENTITY:PERMISSION` (D10). */
export type PermissionRole = `${PermissionEntity}:${Permission}`;

export const CALLER_KINDS = ['USER', 'AGENT', 'SERVICE'] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

export const TENANT_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

/** D26: the three OpenID Connect provider kinds. */
export const IDENTITY_PROVIDER_TYPES = ['GOOGLE_WORKSPACE', 'MICROSOFT_ENTRA_ID', 'OKTA'] as const;
export type IdentityProviderType = (typeof IDENTITY_PROVIDER_TYPES)[number];

export const AGENT_VISIBILITIES = ['PUBLIC', 'PRIVATE', 'INTERNAL'] as const;
export type AgentVisibility = (typeof AGENT_VISIBILITIES)[number];

/** D8: scopes a token may carry. */
export const SCOPES = ['svc:api', 'mcp:call', 'telemetry:write'] as const;
export type Scope = (typeof SCOPES)[number];
