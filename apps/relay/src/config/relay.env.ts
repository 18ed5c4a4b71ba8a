import { CoreEnv } from '@agp/config';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** relay's variables: the core ones of D3 plus the decision service's (README has the table). */
export class RelayEnv extends CoreEnv {
  override PORT: number = 3002;

  /** R3: safety net for a missed cache broadcast; changes normally drop the cache at once. */
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(86_400_000)
  POLICY_CACHE_TTL_MS: number = 60_000;

  /** D22 / POLICY.md: budget of one policy evaluation. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  POLICY_EVAL_TIMEOUT_MS: number = 50;

  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(60_000)
  EVALUATION_RUN_POLL_MS: number = 5_000;

  /** Secret (D37): base64 of 32 bytes sealing credentials; shared by all replicas. Never logged. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9+/_-]{43}=?$/, {
    message: 'must be the base64 of 32 bytes (openssl rand -base64 32)',
  })
  SECRETS_KEY?: string;

  /** D37: may the relay call private ranges (10/8, 172.16/12, 192.168/16, loopback, fc00::/7)? */
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean({ message: 'must be true or false' })
  EGRESS_ALLOW_PRIVATE: boolean = false;

  /** D19: attempts of one delivery round before it is kept as FAILED (at least 6). */
  @Type(() => Number)
  @IsInt()
  @Min(6)
  @Max(20)
  WEBHOOK_MAX_ATTEMPTS: number = 8;

  /** D19: the wait after a first failed attempt; each later wait is three times the previous. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  WEBHOOK_RETRY_BASE_MS: number = 60_000;

  /** D19: the budget of one attempt (connect, answer, body each). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS: number = 10_000;

  @Type(() => Number)
  @IsInt()
  @Min(20)
  @Max(60_000)
  WEBHOOK_POLL_MS: number = 1_000;

  /** Settled webhook deliveries (DELIVERED, FAILED) are deleted this many days after their last change. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3_650)
  WEBHOOK_RETENTION_DAYS: number = 30;

  /** traffic.md T93: the share of traces the relay makes its own hop spans for (0: none). */
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  RELAY_SPANS_SAMPLE_RATIO: number = 0;

  /** T92: the operator's OpenTelemetry collector, read by OpenTelemetry's exporter itself. */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /**
   * payments.md PY20: the x402 facilitator (its verify and settle API) the relay uses when it is
   * the payee of a PER_CALL listing; absent: such listings answer calls as unpaid (−31011).
   */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  X402_FACILITATOR_URL?: string;

  /** W19: extra STARTTLS roots (a company's own mail relay); absent: the system's only. */
  @IsOptional()
  @IsString()
  @MaxLength(4_096)
  NOTIFICATION_SMTP_CA_FILE?: string;
}
