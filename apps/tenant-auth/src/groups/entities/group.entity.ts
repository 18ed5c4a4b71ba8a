import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ schema: 'tenant_auth', name: 'groups' })
export class Group {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @Column('text')
  name: string;

  @Column('text')
  description: string;

  /** Members get these roles (D10: users get permissions through roles and groups). */
  @Column('uuid', { array: true })
  roleIds: string[];

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
