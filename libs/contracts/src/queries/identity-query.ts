import { IsUUID } from 'class-validator';

/**
 * What a service asks the owner of an identity when its projection misses an id (issue 30, read
 * your own writes across services): the id, in the asking caller's tenant. The owner looks only in
 * that tenant, so an id of another tenant is absent, as D12 wants it (no cross-tenant answer).
 */
export class IdentityQuery {
  @IsUUID()
  tenantId: string;

  @IsUUID()
  id: string;
}
