import { FactoryProvider } from '@nestjs/common';
import { Database } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import { CatalogSpec, CatalogRepository } from './catalog.repository';
import { CatalogOptions, CatalogService } from './catalog.service';

export function catalogProvider(
  provide: symbol,
  spec: CatalogSpec,
  options: CatalogOptions,
): FactoryProvider<CatalogService> {
  return {
    provide,
    inject: [RELAY_DATABASE, RELAY_OUTBOX],
    useFactory: catalogFactory(spec, options),
  };
}

export function catalogFactory(
  spec: CatalogSpec,
  options: CatalogOptions,
): (database: Database, outbox: EventOutbox) => CatalogService {
  const repository = new CatalogRepository(spec);
  const subscriptions = new SubscriptionsRepository();
  return (database, outbox) =>
    new CatalogService(database, outbox, repository, subscriptions, options);
}
