/** Who may use the client_credentials grant (D7): an agent or a service account. */
export const CLIENT_KINDS = ['AGENT', 'SERVICE'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export const CLIENT_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

/** A client of the token endpoint, as `tenant_auth.clients` keeps it. */
export interface Client {
  /** The `client_id` of the token endpoint (D7: client_id = agent id). */
  id: string;
  tenantId: string;
  kind: ClientKind;
  name: string;
  description: string;
  status: ClientStatus;
  secretHash: string;
  secretRotatedAt: Date;
  /** Role strings the client's tokens carry (D10: agents get permissions through their registration). */
  permissions: string[];
  createdAt: Date;
  updatedAt: Date;
  /** Raised by every change; carried by its lifecycle events and owner answers (issue 30). */
  revision: number;
}
