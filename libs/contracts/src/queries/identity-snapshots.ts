import {
  IsArray,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  Min,
} from 'class-validator';

abstract class IdentitySnapshot {
  @IsString()
  @MaxLength(32)
  status: string;

  @IsInt()
  @Min(1)
  revision: number;
}

export class AgentSnapshot extends IdentitySnapshot {
  @IsUUID()
  agentId: string;

  @IsString()
  @MaxLength(200)
  name: string;

  @IsArray()
  @IsString({ each: true })
  permissions: string[];
}

export class UserSnapshot extends IdentitySnapshot {
  @IsUUID()
  userId: string;

  @IsEmail({ require_tld: false })
  @MaxLength(320)
  email: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  displayName?: string;
}

export class TenantSnapshot extends IdentitySnapshot {
  @IsUUID()
  tenantId: string;

  @IsString()
  @MaxLength(100)
  slug: string;
}
