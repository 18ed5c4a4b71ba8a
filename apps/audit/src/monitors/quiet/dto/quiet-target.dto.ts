import { DETECTORS, Detector, SUBJECT_TYPES, SubjectType } from '@agp/contracts';
import { IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';

import { QUIET_SCOPES, QuietScope } from '../quiet.types';

/** What a mute or downtime covers: the field of its scope, and only that one (M22). */
export class QuietTargetDto {
  @IsIn(QUIET_SCOPES)
  scope: QuietScope;

  @IsOptional()
  @IsUUID()
  monitorId?: string;

  @IsOptional()
  @IsIn(DETECTORS)
  detector?: Detector;

  @IsOptional()
  @IsIn(SUBJECT_TYPES)
  subjectType?: SubjectType;

  @IsOptional()
  @IsUUID()
  subjectId?: string;

  @IsString()
  @Length(1, 2_000)
  reason: string;
}
