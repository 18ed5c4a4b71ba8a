import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * traffic.md T94: the W3C trace context a channel's inbound request came with (as the relay read
 * it, valid or absent), so the worker's hops and its call to the agent stay in that trace.
 */
export class AddChannelEventTrace1765390000000 implements MigrationInterface {
  name = 'AddChannelEventTrace1765390000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE ${RELAY_SCHEMA}.channel_events ADD COLUMN traceparent text, ADD COLUMN tracestate text`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE ${RELAY_SCHEMA}.channel_events DROP COLUMN traceparent, DROP COLUMN tracestate`,
    );
  }
}
