import { createMessagingTables, dropMessagingTables } from '@agp/messaging';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { TENANT_AUTH_SCHEMA } from '../tokens';

export class CreateMessagingTables1763780000000 implements MigrationInterface {
  name = 'CreateMessagingTables1763780000000';

  async up(runner: QueryRunner): Promise<void> {
    await createMessagingTables(runner, TENANT_AUTH_SCHEMA);
  }

  async down(runner: QueryRunner): Promise<void> {
    await dropMessagingTables(runner, TENANT_AUTH_SCHEMA);
  }
}
