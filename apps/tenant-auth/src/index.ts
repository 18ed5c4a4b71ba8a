export * from './config/tenant-auth.env';
export * from './database/data-source';
export * from './database/tokens';
export * from './tenant-auth.module';
