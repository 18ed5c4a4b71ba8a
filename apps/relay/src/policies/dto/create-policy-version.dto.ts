import { IsISO8601, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';

import { VERSION_PATTERN } from '../version-ordering';

export class CreatePolicyVersionDto {
  /** A Rego v1 module (D22); compiled on creation (D24). */
  @IsString()
  @Length(1, 262_144)
  regoSource: string;

  /**
   * A Rego v1 test module for `regoSource` (issue 15): its `test_` rules run when the version is
   * created, with `with` mocks as in `opa test`; a failing test is a 400 like a compile error (D24).
   */
  @IsOptional()
  @IsString()
  @Length(1, 262_144)
  testSource?: string;

  /** Must be greater than every existing version of the group; default: the latest plus one (R4). */
  @IsOptional()
  @Matches(VERSION_PATTERN, { message: 'version must be 1 to 4 dot-separated numbers' })
  version?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  description?: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  validFrom?: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  validTo?: string;
}
