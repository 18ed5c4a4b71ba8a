import { databaseToken } from '@agp/database';
import { consumersToken, outboxToken } from '@agp/messaging';

export const RELAY_SERVICE = 'relay';
export const RELAY_SCHEMA = 'relay';
export const RELAY_DATABASE = databaseToken(RELAY_SERVICE);
export const RELAY_OUTBOX = outboxToken(RELAY_SERVICE);
export const RELAY_CONSUMERS = consumersToken(RELAY_SERVICE);
