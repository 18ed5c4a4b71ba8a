/** A group of a tenant's users; members get its roles (D10). */
export interface Group {
  id: string;
  tenantId: string;
  name: string;
  description: string;
  roleIds: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface GroupMember {
  userId: string;
  email: string;
  displayName: string;
  addedAt: Date;
}
