export * from './errors';
export * from './config/agent-config';
export * from './models/access-token';
export * from './models/models';
export { ModelParseError } from './models/wire';
export * from './models/tool-namespace';
export { TokenProvider, type TokenScope, type TokenEvents } from './auth/token-provider';
export { createGovernedFetch, type FetchLike } from './http/governed-fetch';
export {
  CORRELATION_HEADER,
  correlationIdOf,
  currentCorrelationId,
  runWithCorrelationId,
} from './http/correlation';
export * from './api/agent-client';
export * from './mcp/mcp-relay-client';
export * from './a2a/task-states';
export * from './a2a/task-polling';
export * from './a2a/a2a-client-factory';
export * from './directory/agent-directory';
export * from './directory/directory-search';
export * from './models/discovery';
export * from './webhooks/webhook-headers';
export * from './webhooks/verify-webhook';
export * from './webhooks/verify-push';
export * from './admin/admin-surface';
export { adminRequestListener, ADMIN_MOUNT_PATH } from './admin/node-adapter';
export { adminFastifyPlugin } from './admin/fastify-plugin';
export * from './runtime/agent-runtime';
export * from './frameworks/wrapper-settings';
export * from './frameworks/governed-tools';
export * from './licences/verify-licence';
