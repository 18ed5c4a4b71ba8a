import { IsIn, IsUUID } from 'class-validator';

import { SUBJECT_TYPES, SubjectType } from '../enums/monitor';

/** What an alert is about (D28): one of the eight subject kinds, discriminated by `type`. */
export class MonitorSubject {
  @IsIn(SUBJECT_TYPES)
  type: SubjectType;

  @IsUUID()
  id: string;
}
