export * from './data-source';
export * from './database';
export * from './database.module';
export * from './embedded-postgres';
export * from './migrations';
export * from './snake-naming.strategy';
export * from './tenant-rls';
export * from './tenant-rls-check';
