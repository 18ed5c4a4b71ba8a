import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';

const URL_OPTIONS = { require_tld: false, require_protocol: true };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class CoreEnv {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65_535)
  PORT: number = 8080;

  @IsUrl(URL_OPTIONS)
  PUBLIC_BASE_URL: string = 'http://localhost:8080';

  /** D8: defaults to PUBLIC_BASE_URL (see `apiAudience`). */
  @IsOptional()
  @IsUrl(URL_OPTIONS)
  AUTH_AUDIENCE?: string;

  /** Where services fetch tenant-auth's public keys (D6); defaults to the public JWKS address. */
  @IsOptional()
  @IsUrl(URL_OPTIONS)
  AUTH_JWKS_URL?: string;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /** How many proxies in front of this process are believed about the client's address (F17). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10)
  TRUST_PROXY_HOPS: number = 0;

  /** Set: PostgreSQL. Unset: the embedded PGlite under DATA_DIR (D2). */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  /** Set: NATS JetStream. Unset: the in-process event bus (D2). */
  @IsOptional()
  @Matches(/^(nats|tls):\/\/[^\s]+$/, { message: 'must be a nats:// URL' })
  NATS_URL?: string;

  /** Prefix of stream and subject names, so that environments (and test runs) share a server safely. */
  @Matches(/^[a-z][a-z0-9_]{0,30}$/, { message: 'must be lower-case letters, digits or _' })
  NATS_PREFIX: string = 'agp';

  @IsString()
  DATA_DIR: string = './.data';
}

export function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function apiAudience(env: CoreEnv): string {
  return stripTrailingSlash(env.AUTH_AUDIENCE ?? env.PUBLIC_BASE_URL);
}

/** D6: the issuer of every token. */
export function tokenIssuer(env: CoreEnv): string {
  return `${stripTrailingSlash(env.PUBLIC_BASE_URL)}/tenant-auth/v1`;
}
