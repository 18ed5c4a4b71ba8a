import { Transform } from 'class-transformer';
import { IsDateString, IsIn, IsOptional, IsUUID } from 'class-validator';
import {
  ALERT_STATUSES,
  AlertStatus,
  DETECTORS,
  Detector,
  SEVERITIES,
  SUBJECT_TYPES,
  Severity,
  SubjectType,
} from '@agp/contracts';
import { PageQueryDto } from '@agp/http';

function toList({ value }: { value: unknown }): unknown {
  const values: unknown[] = Array.isArray(value) ? (value as unknown[]) : [value];
  return values.flatMap((v): unknown[] =>
    typeof v === 'string' ? v.split(',').map((s) => s.trim()) : [v],
  );
}

/** `GET /audit/v1/monitors/alerts` (D14 filters, plus subject and time; D31 paging). */
export class ListAlertsQueryDto extends PageQueryDto {
  @IsOptional()
  @Transform(toList)
  @IsIn(ALERT_STATUSES, { each: true })
  status?: AlertStatus[];

  @IsOptional()
  @Transform(toList)
  @IsIn(SEVERITIES, { each: true })
  severity?: Severity[];

  @IsOptional()
  @Transform(toList)
  @IsIn(DETECTORS, { each: true })
  detector?: Detector[];

  /** The alerts of one custom monitor (issue 17). */
  @IsOptional()
  @IsUUID()
  monitorId?: string;

  @IsOptional()
  @IsIn(SUBJECT_TYPES)
  subjectType?: SubjectType;

  @IsOptional()
  @IsUUID()
  subjectId?: string;

  @IsOptional()
  @IsDateString()
  from?: string;

  @IsOptional()
  @IsDateString()
  to?: string;
}
