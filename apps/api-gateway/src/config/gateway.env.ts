import { Type } from 'class-transformer';
import { IsInt, IsUrl, Max, Min } from 'class-validator';
import { CoreEnv } from '@agp/config';

const URL_OPTIONS = { require_tld: false, require_protocol: true };

export class GatewayEnv extends CoreEnv {
  @IsUrl(URL_OPTIONS)
  TENANT_AUTH_URL: string = 'http://127.0.0.1:3001';

  @IsUrl(URL_OPTIONS)
  RELAY_URL: string = 'http://127.0.0.1:3002';

  @IsUrl(URL_OPTIONS)
  AUDIT_URL: string = 'http://127.0.0.1:3003';

  /** An upstream that has not answered (headers, or the next body chunk) by then is a 504. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  UPSTREAM_TIMEOUT_MS: number = 30_000;
}
