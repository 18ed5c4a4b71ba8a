export * from './config/relay.env';
export * from './database/data-source';
export * from './database/tokens';
export * from './relay.module';
