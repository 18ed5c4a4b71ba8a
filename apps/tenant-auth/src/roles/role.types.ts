/** A named set of permission entries, stored as role strings `ENTITY:PERMISSION` (D10). */
export interface Role {
  id: string;
  tenantId: string;
  name: string;
  description: string;
  permissions: string[];
  createdAt: Date;
  updatedAt: Date;
}
