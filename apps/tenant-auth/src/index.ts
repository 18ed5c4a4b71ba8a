export * from './bootstrap/bootstrap-default-tenant';
export * from './bootstrap/bootstrap.service';
export * from './config/tenant-auth.env';
export * from './database/data-source';
export * from './database/tokens';
export * from './keys/signing-keys.service';
export * from './tenant-auth.module';
export * from './openapi/response-schemas';
