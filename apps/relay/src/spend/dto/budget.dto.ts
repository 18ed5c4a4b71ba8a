import { PageQueryDto, PatchType } from '@agp/http';
import { IsIn, IsOptional, IsString, IsUUID, Matches, ValidateIf } from 'class-validator';

import {
  BUDGET_PERIODS,
  BUDGET_SCOPES,
  BUDGET_UNITS,
  BudgetPeriod,
  BudgetScope,
  BudgetUnit,
} from '../spend.types';

/** SP6: a limit is a decimal string: USD with at most 6 decimals, TOKENS a whole number. */
export const LIMIT = /^(0|[1-9][0-9]{0,17})(\.[0-9]{1,6})?$/;
const LIMIT_MESSAGE = (field: string): string =>
  `${field} must be a decimal string (USD, at most 6 decimals; TOKENS, a whole number)`;

/** D60 `{scope, targetId?, period, unit, softLimit?, hardLimit?}`. */
export class CreateBudgetDto {
  @IsIn(BUDGET_SCOPES)
  scope: BudgetScope;

  /** The agent, LLM gateway or subscription; absent for TENANT. */
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsUUID()
  targetId?: string | null;

  @IsIn(BUDGET_PERIODS)
  period: BudgetPeriod;

  @IsIn(BUDGET_UNITS)
  unit: BudgetUnit;

  /** Reached: the call goes on as a WARN and an alert is raised (SP10, SP11). */
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsString()
  @Matches(LIMIT, { message: LIMIT_MESSAGE('softLimit') })
  softLimit?: string | null;

  /** Reached: calls are refused before the upstream (SP9). */
  @IsOptional()
  @ValidateIf((_o, value) => value !== null)
  @IsString()
  @Matches(LIMIT, { message: LIMIT_MESSAGE('hardLimit') })
  hardLimit?: string | null;
}

/** A PATCH: absent fields are kept; `null` clears a limit or the target. */
export class UpdateBudgetDto extends PatchType(CreateBudgetDto) {}

export class ListBudgetsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(BUDGET_SCOPES)
  scope?: BudgetScope;

  @IsOptional()
  @IsUUID()
  targetId?: string;
}
