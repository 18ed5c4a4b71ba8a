export * from './eventually';
export * from './test-database';
export * from './test-nats';
export * from './test-token-issuer';
export * from './nats-server';
export * from './forged-tokens';
export * from './route-catalogue';
