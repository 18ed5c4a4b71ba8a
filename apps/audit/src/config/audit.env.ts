import { CoreEnv } from '@agp/config';

/** audit's variables: the core ones of D3 (README has the table). */
export class AuditEnv extends CoreEnv {
  override PORT: number = 3003;
}
