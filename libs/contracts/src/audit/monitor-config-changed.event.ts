import { IsArray, IsIn, IsObject } from 'class-validator';

import { DETECTORS, Detector } from '../enums/monitor';
import { AuditableEventData } from '../events/auditable-event.data';

/** `MONITOR_CONFIG_CHANGED`: a tenant's detector settings changed (issue 7). */
export class MonitorConfigChangedData extends AuditableEventData {
  @IsArray()
  @IsIn(DETECTORS, { each: true })
  changedDetectors: Detector[];

  @IsObject()
  settings: Record<string, Record<string, unknown>>;
}
