import { IsBoolean, IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator';

/** Operation 3's body (D15). */
export class CreateEvaluationPackDto {
  @IsString()
  @Length(1, 200)
  name: string;

  /** Default: the calling user. Must name a user of the caller's tenant. */
  @IsOptional()
  @IsUUID()
  ownerUserId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}
