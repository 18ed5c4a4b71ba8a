import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { AdminChange } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { ChangeInput, adminChangeData } from './admin-change';

/** `ADMIN_CHANGE` (D42) via the outbox in the change's transaction: both commit or neither (D5). */
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
