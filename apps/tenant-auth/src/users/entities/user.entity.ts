import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';

export const USER_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

@Entity({ schema: 'tenant_auth', name: 'users' })
export class User {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  /** Lower-cased; unique per tenant. */
  @Column('text')
  email: string;

  @Column('text')
  displayName: string;

  /** scrypt; null for a user who signs in only through an identity provider. */
  @Column('text', { nullable: true })
  passwordHash: string | null;

  @Column('text')
  status: UserStatus;

  @Column('uuid', { array: true })
  roleIds: string[];

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /** Raised by every change; carried by its lifecycle events and owner answers (issue 30). */
  @VersionColumn()
  revision: number;
}
