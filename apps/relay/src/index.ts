export * from './config/relay.env';
export * from './config/secrets-key';
export * from './database/data-source';
export * from './database/tokens';
export * from './relay.module';
export * from './mcp-servers/credential-cipher';
