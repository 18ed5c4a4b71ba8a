export const PROTOCOLS = ['REST', 'JSONRPC', 'GRPC', 'CHANNEL', 'MCP'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** Audit action values. ERROR is what a failed evaluation yields (D22). */
export const ACTIONS = ['LOG', 'MASK', 'BLOCK', 'WARN', 'HUMAN_REVIEW_REQUIRED', 'ERROR'] as const;
export type Action = (typeof ACTIONS)[number];

/** What a policy decision may ask for (D22); ERROR is never written by a policy. */
export const DECISION_ACTIONS = ['LOG', 'MASK', 'BLOCK', 'WARN', 'HUMAN_REVIEW_REQUIRED'] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

export const DIRECTIONS = ['REQUEST', 'RESPONSE'] as const;
export type MessageDirection = (typeof DIRECTIONS)[number];

export const ENDPOINT_TYPES = ['AGENT', 'USER', 'CHANNEL', 'MCP_SERVER', 'LLM_GATEWAY'] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

export const BINDING_LEVELS = [
  'TENANT',
  'AGENT',
  'SUBSCRIPTION',
  'CHANNEL',
  'CHANNEL_SUBSCRIPTION',
] as const;
export type BindingLevel = (typeof BINDING_LEVELS)[number];
