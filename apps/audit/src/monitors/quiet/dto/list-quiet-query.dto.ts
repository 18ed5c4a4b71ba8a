import { PageQueryDto } from '@agp/http';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

export class ListQuietQueryDto extends PageQueryDto {
  /** Mutes: only those in force now. Downtimes: only those not cancelled. Default false / true. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean()
  active?: boolean;
}
