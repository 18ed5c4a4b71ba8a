import { EventFamily } from '../events/event-families';

/** A chain head as a checkpoint commits to it (hash in hex). */
export interface CheckpointHead {
  family: EventFamily;
  seq: number;
  hash: string;
}

/** A signed commitment to a tenant's chain heads at one moment (issue 5, item 5). */
export interface Checkpoint {
  id: string;
  tenantId: string;
  createdAt: string;
  kid: string;
  heads: CheckpointHead[];
  /** Compact JWS (ES256) over {checkpointId, tenantId, createdAt, heads}: keep it outside our database. */
  jws: string;
}
