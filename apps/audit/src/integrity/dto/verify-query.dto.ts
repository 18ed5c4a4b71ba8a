import { IsISO8601, IsOptional } from 'class-validator';

/** The window of `GET /audit/v1/integrity/verify`, on recording time (A6); both optional. */
export class VerifyQueryDto {
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}
