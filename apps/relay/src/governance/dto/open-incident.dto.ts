import { SEVERITIES, Severity } from '@agp/contracts';
import { IsIn, IsISO8601, IsOptional, IsString, Length, MaxLength } from 'class-validator';

export class OpenIncidentDto {
  @IsString()
  @Length(1, 200)
  title: string;

  @IsOptional()
  @IsString()
  @MaxLength(4_000)
  description?: string;

  @IsIn(SEVERITIES)
  severity: Severity;

  /** Defaults to the tier's incidentReportDays after now (G3); must lie in the future. */
  @IsOptional()
  @IsISO8601({ strict: true })
  reportDueAt?: string;
}
