import { IsISO8601, IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';

/** Moving a binding to another version is operation 7 only (D18). */
export class UpdatePolicyBindingDto {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  priority?: number;

  @IsOptional()
  @IsISO8601({ strict: true })
  validFrom?: string;

  /** null removes the end of the window. */
  @ValidateIf((_object, value) => value !== null && value !== undefined)
  @IsISO8601({ strict: true })
  validTo?: string | null;
}
