import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';
import { TenantStatus } from '@agp/contracts';

/** A tenant (issue 4): its id is the `tid` of every token of its users, agents and service accounts. */
@Entity({ schema: 'tenant_auth', name: 'tenants' })
export class Tenant {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  slug: string;

  @Column('text')
  name: string;

  @Column('text')
  status: TenantStatus;

  /** identity.md I3: administrators of the operator tenant manage every tenant. */
  @Column('boolean')
  isOperator: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /** Raised by every change; carried by its lifecycle events and owner answers (issue 30). */
  @VersionColumn()
  revision: number;
}
