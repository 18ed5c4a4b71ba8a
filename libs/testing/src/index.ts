export * from './eventually';
export * from './test-database';
export * from './test-nats';
