import { ConnectionOptions } from '@nats-io/transport-node';

/** How every connection of the platform's messaging is opened (D5, issue 5). */
export function natsConnectionOptions(url: string, name: string): ConnectionOptions {
  return {
    servers: url,
    name,
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    noAsyncTraces: true,
  };
}
