import { CoreEnv } from '@agp/config';

/** relay's variables: the core ones of D3 (README has the table). */
export class RelayEnv extends CoreEnv {
  override PORT: number = 3002;
}
