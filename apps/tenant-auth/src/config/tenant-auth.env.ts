import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import { CoreEnv } from '@agp/config';

/** tenant-auth's variables: the core ones of D3 plus tokens, keys and limits (README has the table). */
export class TenantAuthEnv extends CoreEnv {
  override PORT: number = 3001;

  /** Secret: encrypts signing keys and identity-provider secrets at rest (AES-256-GCM). */
  @IsOptional()
  @IsString()
  @MinLength(32)
  KEY_ENCRYPTION_SECRET?: string;

  /** D9: lifetime of an access token. */
  @Type(() => Number)
  @IsInt()
  @Min(60)
  @Max(86_400)
  TOKEN_TTL_SEC: number = 900;

  /** D9: the active signing key is replaced once it is this old (checked at start and hourly). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(365)
  SIGNING_KEY_MAX_AGE_DAYS: number = 30;

  /** Token requests per client (client id, or tenant and user name) per window. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  TOKEN_RATE_LIMIT_PER_CLIENT: number = 30;

  /** Token requests per source address per window. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  TOKEN_RATE_LIMIT_PER_ADDRESS: number = 120;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3_600)
  TOKEN_RATE_WINDOW_SEC: number = 60;

  // identity.md I14: further origins the console is served from (comma-separated, e.g. the Vite dev
  // server); PUBLIC_BASE_URL is always one.
  @IsOptional()
  @Matches(/^https?:\/\/[^\s,/]+(,https?:\/\/[^\s,/]+)*$/, {
    message: 'must be comma-separated origins such as http://localhost:5173',
  })
  CONSOLE_ORIGINS?: string;

  /** I15: how long a browser stays signed in at tenant-auth (the sign-in session cookie). */
  @Type(() => Number)
  @IsInt()
  @Min(300)
  @Max(604_800)
  SIGN_IN_SESSION_TTL_SEC: number = 43_200;

  /** I16: a refresh token family's whole life, however often it is rotated. */
  @Type(() => Number)
  @IsInt()
  @Min(300)
  @Max(2_592_000)
  REFRESH_TOKEN_TTL_SEC: number = 43_200;

  /** DNS server for e-mail domain verification, `host` or `host:port`; the system's when unset. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9.:[\]-]+$/, { message: 'must be host or host:port' })
  DNS_RESOLVER?: string;

  /** Only for local development and tests; never in production (I24). */
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean({ message: 'must be true or false' })
  CLIENT_METADATA_ALLOW_PRIVATE: boolean = false;
}

export const TENANT_AUTH_ENV = Symbol.for('agp:tenant-auth:env');
