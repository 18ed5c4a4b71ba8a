import { CoreEnv } from '@agp/config';

/** tenant-auth's variables: the core ones of D3 (README has the table). */
export class TenantAuthEnv extends CoreEnv {
  override PORT: number = 3001;
}
