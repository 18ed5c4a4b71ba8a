import { databaseToken } from '@agp/database';
import { outboxToken } from '@agp/messaging';

export const AUDIT_SERVICE = 'audit';
export const AUDIT_SCHEMA = 'audit';
export const AUDIT_DATABASE = databaseToken(AUDIT_SERVICE);
export const AUDIT_OUTBOX = outboxToken(AUDIT_SERVICE);
