import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { CoreEnv } from '@agp/config';

/** audit's variables: the core ones of D3 and the audit trail's own (README has the table). */
export class AuditEnv extends CoreEnv {
  override PORT: number = 3003;

  /** Secret that encrypts the checkpoint signing key at rest (A4). */
  @IsOptional()
  @IsString()
  @MinLength(32)
  AUDIT_SIGNING_KEY_SECRET?: string;

  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  AUDIT_CHECKPOINT_INTERVAL_MS: number = 300_000;

  /** How often retention and partition upkeep run (once per tick across replicas). */
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  AUDIT_RETENTION_INTERVAL_MS: number = 3_600_000;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(5_000)
  AUDIT_INGEST_BATCH: number = 1_000;

  /** Ingest batches handled at once by one replica, each its own transaction (A1). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(4)
  AUDIT_INGEST_CONCURRENCY: number = 2;

  /** A28: how long a short ingest batch waits for more events; fewer, larger transactions. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000)
  AUDIT_INGEST_LINGER_MS: number = 50;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(90)
  AUDIT_PARTITIONS_AHEAD_DAYS: number = 7;

  /** Over it an export is answered 429 with `Retry-After` (the next minute) (A25). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  TELEMETRY_ITEMS_PER_MINUTE: number = 600_000;

  /** Bytes of export requests one replica decodes and stores at once (A25). */
  @Type(() => Number)
  @IsInt()
  @Min(4 * 1024 * 1024)
  TELEMETRY_INFLIGHT_BYTES: number = 64 * 1024 * 1024;
}
