import { PatchType } from '@agp/http';

import { CreateMonitorDto } from './create-monitor.dto';

/**
 * `PATCH /audit/v1/monitors/{monitorId}`: what is given replaces, `null` resets an optional field
 * to its default; the whole is checked again (M21).
 */
export class UpdateMonitorDto extends PatchType(CreateMonitorDto) {}
