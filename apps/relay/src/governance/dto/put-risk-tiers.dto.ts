import { SEVERITIES, Severity } from '@agp/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';

export class RiskTierDto {
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$/, {
    message: 'name must be 1 to 64 letters, digits, spaces, _ or -',
  })
  name: string;

  @IsIn(SEVERITIES)
  severity: Severity;

  @IsInt()
  @Min(1)
  @Max(3_650)
  reviewCadenceDays: number;

  @IsInt()
  @Min(1)
  @Max(3_650)
  attestationMaxAgeDays: number;

  @IsInt()
  @Min(1)
  @Max(365)
  incidentReportDays: number;
}

/** PUT replaces the tenant's whole list, least to most severe. */
export class PutRiskTiersDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => RiskTierDto)
  tiers: RiskTierDto[];
}
