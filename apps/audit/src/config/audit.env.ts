import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { CoreEnv } from '@agp/config';

/** audit's variables: the core ones of D3 and the audit trail's own (README has the table). */
export class AuditEnv extends CoreEnv {
  override PORT: number = 3003;

  /**
   * Secret that encrypts the checkpoint signing key at rest (A4). Unset: an ephemeral key per
   * process, only its public half stored (the embedded default).
   */
  @IsOptional()
  @IsString()
  @MinLength(32)
  AUDIT_SIGNING_KEY_SECRET?: string;

  /** How often a signed checkpoint commits to each tenant's chain heads. */
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  AUDIT_CHECKPOINT_INTERVAL_MS: number = 300_000;

  /** How often retention and partition upkeep run (once per tick across replicas). */
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  AUDIT_RETENTION_INTERVAL_MS: number = 3_600_000;

  /** Most events stored in one ingest transaction. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(5_000)
  AUDIT_INGEST_BATCH: number = 1_000;

  /**
   * Ingest batches handled at once by one replica, each its own transaction: with 2, one batch is
   * prepared while PostgreSQL writes the other (batches of one tenant still take turns on its
   * chain heads, A1).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(4)
  AUDIT_INGEST_CONCURRENCY: number = 2;

  /** Daily partitions created ahead of today. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(90)
  AUDIT_PARTITIONS_AHEAD_DAYS: number = 7;

  /**
   * A tenant's telemetry quota (A25): spans and log records accepted per minute, across replicas.
   * Over it an export is answered 429 with `Retry-After` (the next minute).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  TELEMETRY_ITEMS_PER_MINUTE: number = 600_000;

  /**
   * Bytes of export requests one replica decodes and stores at once (A25); past it an export is
   * answered 503 with `Retry-After`, which OTLP exporters retry.
   */
  @Type(() => Number)
  @IsInt()
  @Min(4 * 1024 * 1024)
  TELEMETRY_INFLIGHT_BYTES: number = 64 * 1024 * 1024;
}
