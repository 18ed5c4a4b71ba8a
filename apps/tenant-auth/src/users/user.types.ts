export const USER_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export interface User {
  id: string;
  tenantId: string;
  /** Lower-cased; unique per tenant. */
  email: string;
  displayName: string;
  /** scrypt; null for a user who signs in only through an identity provider. */
  passwordHash: string | null;
  status: UserStatus;
  roleIds: string[];
  createdAt: Date;
  updatedAt: Date;
  /** Raised by every change; carried by its lifecycle events and owner answers (issue 30). */
  revision: number;
}
