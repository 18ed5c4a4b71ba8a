import { IsIn } from 'class-validator';
import { DISMISS_REASONS, DismissReason } from '@agp/contracts';

import { LifecycleActionDto } from './lifecycle-action.dto';

/** D14: dismiss adds a required reason. */
export class DismissAlertDto extends LifecycleActionDto {
  @IsIn(DISMISS_REASONS)
  reason: DismissReason;
}
