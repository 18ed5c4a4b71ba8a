import { IsObject, IsOptional, IsString, Length, MaxLength } from 'class-validator';

export class UpdatePolicyGroupDto {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}
