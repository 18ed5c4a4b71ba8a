import { databaseToken } from '@agp/database';
import { consumersToken, outboxToken } from '@agp/messaging';

export const TENANT_AUTH_SERVICE = 'tenant-auth';
export const TENANT_AUTH_SCHEMA = 'tenant_auth';
export const TENANT_AUTH_DATABASE = databaseToken(TENANT_AUTH_SERVICE);
export const TENANT_AUTH_OUTBOX = outboxToken(TENANT_AUTH_SERVICE);
export const TENANT_AUTH_CONSUMERS = consumersToken(TENANT_AUTH_SERVICE);
