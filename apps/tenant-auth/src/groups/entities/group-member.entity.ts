import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'tenant_auth', name: 'group_members' })
export class GroupMember {
  @PrimaryColumn('uuid')
  groupId: string;

  @PrimaryColumn('uuid')
  userId: string;

  @Column('uuid')
  tenantId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
