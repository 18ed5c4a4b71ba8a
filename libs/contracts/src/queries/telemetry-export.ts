import { IsBase64, IsInt, IsUUID, MaxLength, Min } from 'class-validator';

/** A protobuf export of at most this many characters of base64 fits NATS's 1 MiB message. */
export const MAX_TELEMETRY_EXPORT_CHARS = 900_000;

/**
 * Issue 37 item 4 (audit.md A30, traffic.md T92): the relay's own spans of one tenant's hops, as
 * an OTLP `ExportTraceServiceRequest` in protobuf (base64). The audit service, which keeps each
 * tenant's telemetry (D46), stores them as that tenant's, sent by the relay.
 */
export class TelemetryExportRequest {
  @IsUUID()
  tenantId: string;

  @IsBase64()
  @MaxLength(MAX_TELEMETRY_EXPORT_CHARS)
  spans: string;
}

/** What was stored and what was rejected (OTLP's partial success). */
export class TelemetryExportAnswer {
  @IsInt()
  @Min(0)
  accepted: number;

  @IsInt()
  @Min(0)
  rejected: number;
}
