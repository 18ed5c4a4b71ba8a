export * from './admin-change';
export * from './diff-fields';
export * from './redact';
export * from './record-admin-change';
