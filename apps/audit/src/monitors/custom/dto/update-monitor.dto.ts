import { PatchType } from '@agp/http';

import { CreateMonitorDto } from './create-monitor.dto';

/** `PATCH /audit/v1/monitors/{monitorId}` (M21). */
export class UpdateMonitorDto extends PatchType(CreateMonitorDto) {}
