import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { AdminChange } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { ChangeInput, adminChangeData } from './admin-change';

/**
 * Records the caller's change of an administered resource as `ADMIN_CHANGE` (D42), in the
 * transaction of the change, through the service's outbox (D5): it commits with the change or
 * not at all.
 */
export async function recordAdminChange(
  outbox: EventOutbox,
  tx: Tx,
  ctx: RequestContext,
  change: AdminChange,
  input: ChangeInput,
): Promise<void> {
  await outbox.add(
    tx,
    'ADMIN_CHANGE',
    eventContext(ctx),
    adminChangeData(actorOf(ctx), change, input),
  );
}
