import { IsBoolean } from 'class-validator';

/** D22: fail closed by default; a tenant may choose fail open. */
export class UpdatePolicySettingsDto {
  @IsBoolean()
  failOpen: boolean;
}
