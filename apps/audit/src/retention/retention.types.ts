import { EventFamily } from '../events/event-families';

export interface RetentionPolicy {
  days: Record<EventFamily, number>;
  captureContent: boolean;
  /** Null while the tenant keeps the defaults. */
  updatedAt: string | null;
}
