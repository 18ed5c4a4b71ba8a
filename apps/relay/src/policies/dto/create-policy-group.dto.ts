import { IsObject, IsOptional, IsString, Length, MaxLength } from 'class-validator';

export class CreatePolicyGroupDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  /** The group's data, visible to its policies under data.<package path> (POLICY.md). */
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}
