import { GOVERNED_SUBJECT_TYPES, GovernedSubjectType } from '@agp/contracts';
import { IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';

export class CreateGovernanceRecordDto {
  @IsIn(GOVERNED_SUBJECT_TYPES)
  subjectType: GovernedSubjectType;

  /** The agent, MCP server, LLM gateway or channel of the caller's registry. */
  @IsUUID()
  subjectId: string;

  /** One of the tenant's risk tiers (GET /relay/v1/governance/risk-tiers). */
  @IsOptional()
  @IsString()
  @Length(1, 64)
  riskTier?: string;

  /** An active user of the caller's tenant. */
  @IsOptional()
  @IsUUID()
  ownerUserId?: string;
}
