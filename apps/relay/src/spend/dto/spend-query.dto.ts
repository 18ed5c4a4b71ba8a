import { IsIn, IsISO8601, IsOptional, IsUUID, Matches } from 'class-validator';

import { SpendKind } from '../spend.types';

const GROUP = '(agent|gateway|model|payee|day)';

/** SP13: `GET /relay/v1/spend` and its CSV export. */
export class SpendQueryDto {
  /** Inclusive; default 30 days before `to`. */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  /** Exclusive; default now. */
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  /** A comma-separated list of agent, gateway, model, payee, day (each at most once). */
  @IsOptional()
  @Matches(new RegExp(`^${GROUP}(,${GROUP}){0,4}$`), {
    message: 'groupBy must be a comma-separated list of agent, gateway, model, payee, day',
  })
  groupBy?: string;

  @IsOptional()
  @IsUUID()
  agentId?: string;

  @IsOptional()
  @IsUUID()
  llmGatewayId?: string;

  /** LLM costs only, or payments only. */
  @IsOptional()
  @IsIn(['LLM', 'PAYMENT'])
  kind?: SpendKind;
}
