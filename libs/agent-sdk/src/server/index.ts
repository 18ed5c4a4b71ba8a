export * from './serve-agent';
