import { Database, Tx } from '@agp/database';
import { EntitySubscriberInterface, QueryRunner } from 'typeorm';

/**
 * Calls `then` once a transaction handed to `after` has committed, never when it rolled back: a
 * kick before the commit would find nothing yet (as the outbox's, `EventOutbox.notifyOnAdd`).
 */
export class AfterCommit {
  private readonly waiting = new WeakSet<QueryRunner>();

  constructor(
    database: Database,
    private readonly then: () => void,
  ) {
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: ({ queryRunner }) => {
        if (!queryRunner.isTransactionActive && this.waiting.delete(queryRunner)) {
          this.then();
        }
      },
      afterTransactionRollback: ({ queryRunner }) => {
        if (!queryRunner.isTransactionActive) {
          this.waiting.delete(queryRunner);
        }
      },
    };
    database.dataSource.subscribers.push(subscriber);
  }

  after(tx: Tx): void {
    if (tx.queryRunner) {
      this.waiting.add(tx.queryRunner);
    } else {
      this.then();
    }
  }
}
