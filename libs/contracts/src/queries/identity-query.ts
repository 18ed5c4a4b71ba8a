import { IsUUID } from 'class-validator';

/** Looked up in that tenant only: another tenant's id is absent (D12, issue 30). */
export class IdentityQuery {
  @IsUUID()
  tenantId: string;

  @IsUUID()
  id: string;
}
