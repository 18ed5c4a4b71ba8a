export * from './eventually';
export * from './test-database';
export * from './test-nats';
export * from './test-token-issuer';
export * from './nats-server';
