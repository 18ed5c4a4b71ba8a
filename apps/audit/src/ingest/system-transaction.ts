import { QueryRunner } from 'typeorm';
import { Database, SYSTEM_SETTING, Tx } from '@agp/database';

/**
 * A52: `Database.asSystem` in one round trip fewer: BEGIN and the system scope go as one simple
 * query (two statements, no parameters), where TypeORM sends BEGIN and `asSystem` the scope. On
 * PGlite, whose one session the socket server shares out by transaction (D2), it is `asSystem`.
 */
export async function inSystemTransaction<T>(
  database: Database,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (await database.isMultiplexedSession()) {
    return database.asSystem(work);
  }
  // TypeORM's own transaction sets this flag; named statements read it (F53).
  const runner = database.dataSource.createQueryRunner() as QueryRunner & {
    isTransactionActive: boolean;
    databaseConnection: { query(sql: string): Promise<{ command?: string }> };
  };
  try {
    await runner.query(`START TRANSACTION; SET LOCAL ${SYSTEM_SETTING} TO 'on'`);
    runner.isTransactionActive = true;
    const result = await work(runner.manager);
    // A57: COMMIT of an aborted transaction answers ROLLBACK, without an error: the batch failed.
    const committed = await runner.databaseConnection.query('COMMIT');
    if (committed.command !== 'COMMIT') {
      throw new Error(
        `the ingest's transaction was rolled back at its COMMIT (${committed.command})`,
      );
    }
    return result;
  } catch (error) {
    // As TypeORM's transaction does: the first error is the one that counts.
    await runner.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    runner.isTransactionActive = false;
    await runner.release();
  }
}
