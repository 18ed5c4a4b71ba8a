export * from './config/audit.env';
export * from './database/data-source';
export * from './database/tokens';
export * from './audit.module';
// The response shapes the console's typed API client is checked against (issue 16).
export type { Dashboard, CountBy, TopEntry, TopLists } from './dashboard/dashboard.types';
export type { AlertResponse } from './monitors/alerts/alert-response';
export type { AuditEventResponseDto } from './events/dto/audit-event-response.dto';
export type { EventPage, TraceResponse } from './events/events.service';
export type { VerificationResult } from './integrity/integrity.service';
export * from './monitors/alerts/alert-raiser.service';
export { DetectorTickService } from './monitors/tick/detector-tick.service';
// For compositions that replay recorded hops as a subject's past (the runner's detector test).
export { RollupsService } from './monitors/rollups/rollups.service';
export type { Finding } from './monitors/engine/monitors.types';
export type { RetentionPolicy } from './retention/retention.types';
export * from './openapi/response-schemas';
