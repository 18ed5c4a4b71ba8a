import { ConnectionOptions } from '@nats-io/transport-node';

/**
 * How every connection of the platform's messaging is opened: reconnect for ever, every half
 * second, so that a NATS restart never ends a service (D5). `noAsyncTraces`: the client would
 * otherwise build two Error objects (for their stack traces) with every request, every JetStream
 * publish among them, which cost a publishing process half its CPU (issue 5 benchmark: 55 against
 * 26 µs per published event); our errors name the subject and consumer instead.
 */
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
