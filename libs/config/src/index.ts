export * from './core.env';
export * from './load-env';
