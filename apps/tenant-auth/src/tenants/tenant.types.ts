import { TenantStatus } from '@agp/contracts';

/** A tenant (issue 4): its id is the `tid` of every token of its users, agents and service accounts. */
export interface Tenant {
  id: string;
  slug: string;
  name: string;
  status: TenantStatus;
  /** identity.md I3: administrators of the operator tenant manage every tenant. */
  isOperator: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Raised by every change; carried by its lifecycle events and owner answers (issue 30). */
  revision: number;
}
