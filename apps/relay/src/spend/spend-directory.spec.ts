import { randomUUID } from 'node:crypto';

import { RequestContext } from '@agp/auth';
import { Database } from '@agp/database';
import pino from 'pino';

import {
  MigratedRelayDatabase,
  migratedRelayDatabase,
  replicaBroadcastOn,
} from '../../test/support/migrated-relay-database';
import { BudgetsRepository, SpendSubject } from './budgets.repository';
import { BudgetsService } from './budgets.service';
import { ModelPricesRepository } from './model-prices.repository';
import { SpendDirectory } from './spend-directory';
import { SpendLedgerRepository } from './spend-ledger.repository';
import { SpendMeter } from './spend-meter.service';

/** R40 on a real relay schema: a call no budget counts opens no transaction; a change counts at once. */
describe(SpendDirectory.name, () => {
  const logger = pino({ level: 'silent' });
  let relay: MigratedRelayDatabase;
  let database: Database;
  let directory: SpendDirectory;
  let meter: SpendMeter;
  let budgets: BudgetsService;
  let transactions = 0;

  beforeAll(async () => {
    relay = await migratedRelayDatabase('relay_spend_directory');
    database = relay.database;
    database.dataSource.subscribers.push({ afterTransactionStart: () => void (transactions += 1) });
    const { broadcast, outbox } = replicaBroadcastOn(database, logger);
    directory = new SpendDirectory(database, broadcast, new ModelPricesRepository());
    await directory.onApplicationBootstrap();
    const rows = new BudgetsRepository();
    meter = new SpendMeter(database, rows, new SpendLedgerRepository(), directory);
    budgets = new BudgetsService(database, outbox, rows);
  });

  afterAll(async () => {
    directory?.onApplicationShutdown();
    await relay?.close();
  });

  const subjectOf = (tenantId: string): SpendSubject => ({
    tenantId,
    agentId: randomUUID(),
    llmGatewayId: randomUUID(),
  });
  const estimate = { promptTokens: 10, completionTokens: 10 };

  async function transactionsOf(work: () => Promise<unknown>): Promise<number> {
    const before = transactions;
    await work();
    return transactions - before;
  }

  function adminOf(tenantId: string): RequestContext {
    return {
      tenantId,
      correlationId: randomUUID(),
      principal: {
        kind: 'USER',
        subject: randomUUID(),
        tenantId,
        permissions: new Set<string>(),
        scopes: [],
        label: 'Ada',
        tokenId: 't-1',
        expiresAt: 0,
      },
    } as unknown as RequestContext;
  }

  it('should admit a call no budget counts without opening a transaction once the tenant is known', async () => {
    const subject = subjectOf(randomUUID());
    await meter.reserveLlm(subject, ['m'], estimate);

    let verdict: unknown;
    const opened = await transactionsOf(async () => {
      verdict = await meter.reserveLlm(subject, ['m'], estimate);
    });

    expect(verdict).toEqual({ kind: 'ADMITTED', warnings: [] });
    expect(opened).toBe(0);
  });

  it('should reserve the next call once a budget that counts it is created on this replica', async () => {
    const tenantId = randomUUID();
    const subject = subjectOf(tenantId);
    const unbudgeted = await meter.reserveLlm(subject, ['m'], estimate);

    await budgets.create(adminOf(tenantId), {
      scope: 'TENANT',
      period: 'DAY',
      unit: 'TOKENS',
      hardLimit: '1000000',
    } as never);
    const budgeted = await meter.reserveLlm(subject, ['m'], estimate);

    expect(unbudgeted).toEqual({ kind: 'ADMITTED', warnings: [] });
    expect(budgeted).toMatchObject({ kind: 'ADMITTED', reservation: { tenantId, tokens: 20n } });
  });
});
