import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';

/** Who may use the client_credentials grant (D7): an agent or a service account. */
export const CLIENT_KINDS = ['AGENT', 'SERVICE'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export const CLIENT_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

@Entity({ schema: 'tenant_auth', name: 'clients' })
export class Client {
  /** The `client_id` of the token endpoint (D7: client_id = agent id). */
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @Column('text')
  kind: ClientKind;

  @Column('text')
  name: string;

  @Column('text')
  description: string;

  @Column('text')
  status: ClientStatus;

  @Column('text')
  secretHash: string;

  @Column('timestamptz')
  secretRotatedAt: Date;

  /** Role strings the client's tokens carry (D10: agents get permissions through their registration). */
  @Column('text', { array: true })
  permissions: string[];

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /** Raised by every change; carried by its lifecycle events and owner answers (issue 30). */
  @VersionColumn()
  revision: number;
}
