import { GOVERNED_SUBJECT_TYPES, GovernedSubjectType } from '@agp/contracts';
import { PageQueryDto } from '@agp/http';
import { IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';

export class ListGovernanceRecordsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(GOVERNED_SUBJECT_TYPES)
  subjectType?: GovernedSubjectType;

  @IsOptional()
  @IsUUID()
  subjectId?: string;

  @IsOptional()
  @IsString()
  @Length(1, 64)
  riskTier?: string;

  @IsOptional()
  @IsUUID()
  ownerUserId?: string;
}
