import { Module } from '@nestjs/common';

import { BudgetsController } from './budgets.controller';
import { BudgetsRepository } from './budgets.repository';
import { BudgetsService } from './budgets.service';
import { ModelPricesController } from './model-prices.controller';
import { ModelPricesRepository } from './model-prices.repository';
import { ModelPricesService } from './model-prices.service';
import { SpendController } from './spend.controller';
import { SpendDirectory } from './spend-directory';
import { SpendLedgerRepository } from './spend-ledger.repository';
import { SpendMeter } from './spend-meter.service';
import { SpendService } from './spend.service';

/**
 * D48, D60: prices, budgets and the ledger. `SpendMeter` is what the traffic paths call: the LLM
 * path (`traffic/llm/llm-spend.ts`) and x402's payments (`checkPayment`, `recordPayment`).
 */
@Module({
  controllers: [ModelPricesController, BudgetsController, SpendController],
  providers: [
    ModelPricesRepository,
    ModelPricesService,
    BudgetsRepository,
    BudgetsService,
    SpendLedgerRepository,
    SpendDirectory,
    SpendMeter,
    SpendService,
  ],
  exports: [SpendMeter, SpendLedgerRepository],
})
export class SpendModule {}
