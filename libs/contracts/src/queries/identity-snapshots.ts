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

/**
 * An identity as its owner holds it now, with the owner's `revision` of it: the same number its
 * lifecycle events carry, so a projection seeded from a snapshot and fed by events applies only
 * what is newer than what it holds (an older or repeated event changes nothing).
 */
export class AgentSnapshot {
  @IsUUID()
  agentId: string;

  @IsString()
  @MaxLength(200)
  name: string;

  @IsString()
  @MaxLength(32)
  status: string;

  @IsArray()
  @IsString({ each: true })
  permissions: string[];

  @IsInt()
  @Min(1)
  revision: number;
}

export class UserSnapshot {
  @IsUUID()
  userId: string;

  @IsEmail({ require_tld: false })
  @MaxLength(320)
  email: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  displayName?: string;

  @IsString()
  @MaxLength(32)
  status: string;

  @IsInt()
  @Min(1)
  revision: number;
}

export class TenantSnapshot {
  @IsUUID()
  tenantId: string;

  @IsString()
  @MaxLength(100)
  slug: string;

  @IsString()
  @MaxLength(32)
  status: string;

  @IsInt()
  @Min(1)
  revision: number;
}
