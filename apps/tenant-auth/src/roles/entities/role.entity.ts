import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A named set of permission entries, stored as role strings `ENTITY:PERMISSION` (D10). */
@Entity({ schema: 'tenant_auth', name: 'roles' })
export class Role {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @Column('text')
  name: string;

  @Column('text')
  description: string;

  @Column('text', { array: true })
  permissions: string[];

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
