import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  Length,
  IsObject,
  IsOptional,
  Max,
  Min,
  ValidateIf,
  Matches,
  ValidateNested,
} from 'class-validator';
import { isPresent } from '@agp/http';

import {
  AI_DISCLOSURE_MODES,
  AiDisclosureMode,
  CONTENT_MARKING_MODES,
  ContentMarkingMode,
  DURABILITIES,
  MAX_DISCLOSURE_TEXT,
  Durability,
  TOOL_DRIFT_ACTIONS,
  ToolDriftAction,
  USD_AMOUNT,
} from '../traffic-settings.types';

/** An origin as browsers send it (RFC 6454): scheme, host, optional port, nothing else. */
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/** D36: messages per minute; null removes the limit. */
export class RateLimitsDto {
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  tenantPerMinute?: number | null;

  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  agentPerMinute?: number | null;

  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  subscriptionPerMinute?: number | null;
}

/** Absent keeps the current value; present (null included) must be valid: these cannot be cleared. */
export class UpdateTrafficSettingsDto {
  @ValidateIf(isPresent)
  @IsObject()
  @ValidateNested()
  @Type(() => RateLimitsDto)
  rateLimits?: RateLimitsDto;

  /** D40: keep the (masked) content of hops in the audit trail, not only their digest. */
  @ValidateIf(isPresent)
  @IsBoolean()
  contentCapture?: boolean;

  /** D34: how long a held call waits for a decision (at most 300 s). */
  @ValidateIf(isPresent)
  @IsInt()
  @Min(1)
  @Max(300)
  hitlWaitSeconds?: number;

  /** D34: how long a hold stays decidable (default 24 h, at most 30 days). */
  @ValidateIf(isPresent)
  @IsInt()
  @Min(60)
  @Max(2_592_000)
  hitlExpirySeconds?: number;

  /**
   * traffic.md T52: BEFORE_FORWARD (the default) makes a request's records durable before it is
   * forwarded; BEFORE_ANSWER before its answer reaches the agent, overlapping the upstream call.
   */
  @ValidateIf(isPresent)
  @IsIn(DURABILITIES)
  durability?: Durability;

  /** D55: the share of matching hops each SHADOW binding sees, 0 to 1 (governance.md G9). */
  @ValidateIf(isPresent)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  shadowSampleRate?: number;
  /**
   * traffic.md T85: the browser origins (`https://console.example.com`) the MCP path serves; null
   * restores the default, the platform's own origin only. Requests without `Origin` always pass.
   */
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsArray()
  @ArrayMaxSize(50)
  @Matches(ORIGIN, {
    each: true,
    message: 'each must be an origin such as https://app.example.com',
  })
  allowedOrigins?: string[] | null;

  /** D51: LOG, HOLD or BLOCK a tool definition that changed after it was pinned. */
  @ValidateIf(isPresent)
  @IsIn(TOOL_DRIFT_ACTIONS)
  toolDrift?: ToolDriftAction;

  /** D45, D57: tell a person they talk to an AI on the FIRST_MESSAGE or EVERY_MESSAGE, or OFF. */
  @ValidateIf(isPresent)
  @IsIn(AI_DISCLOSURE_MODES)
  aiDisclosure?: AiDisclosureMode;

  /** D57: the disclosure's words; null restores the platform's (traffic.md T70). */
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsString()
  @Length(1, MAX_DISCLOSURE_TEXT)
  aiDisclosureText?: string | null;

  /** D45: mark agent content delivered to a person, machine-readable (traffic.md T72). */
  @ValidateIf(isPresent)
  @IsIn(CONTENT_MARKING_MODES)
  contentMarking?: ContentMarkingMode;

  /**
   * D60, payments.md PY6: x402 payments above this many USD (a decimal string such as "5.00", USDC
   * 1:1) wait for a person; null: no payment waits for its amount.
   */
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsString()
  @Matches(USD_AMOUNT, {
    message:
      'must be a USD amount as a decimal string, such as "5" or "0.25" (at most 18 decimals)',
  })
  paymentReviewThreshold?: string | null;
}
