export * from './config/audit.env';
export * from './database/data-source';
export * from './database/tokens';
export * from './audit.module';
// For compositions that raise a finding themselves (the runner's event contract test).
export * from './monitors/alerts/alert-raiser.service';
export type { Finding } from './monitors/monitors.types';
