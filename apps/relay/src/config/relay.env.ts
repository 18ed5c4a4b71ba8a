import { CoreEnv } from '@agp/config';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

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

  /** How often each replica looks for PENDING evaluation runs started elsewhere. */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(60_000)
  EVALUATION_RUN_POLL_MS: number = 1_000;
}
