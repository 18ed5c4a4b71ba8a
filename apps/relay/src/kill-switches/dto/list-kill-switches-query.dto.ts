import { PageQueryDto } from '@agp/http';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsUUID } from 'class-validator';

import { KILL_SWITCH_SCOPES, KillSwitchScope } from '../kill-switch.types';

export class ListKillSwitchesQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(KILL_SWITCH_SCOPES)
  scope?: KillSwitchScope;

  @IsOptional()
  @IsUUID()
  targetId?: string;

  /** `true`: only the engaged ones; `false`: only the released ones. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean()
  engaged?: boolean;
}
