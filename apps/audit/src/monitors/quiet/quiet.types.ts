import { Detector, SubjectType } from '@agp/contracts';

/** What a mute or downtime keeps quiet (M22): one monitor, one detector, or one subject. */
export const QUIET_SCOPES = ['MONITOR', 'DETECTOR', 'SUBJECT'] as const;
export type QuietScope = (typeof QUIET_SCOPES)[number];

export const RECURRENCES = ['NONE', 'DAILY', 'WEEKLY'] as const;
export type Recurrence = (typeof RECURRENCES)[number];

export interface QuietTarget {
  scope: QuietScope;
  monitorId: string | null;
  detector: Detector | null;
  subjectType: SubjectType | null;
  subjectId: string | null;
}

export interface Mute extends QuietTarget {
  id: string;
  reason: string;
  startsAt: Date;
  /** null: until unmuted. */
  endsAt: Date | null;
  createdByLabel: string;
  unmutedAt: Date | null;
  unmutedByLabel: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Downtime extends QuietTarget {
  id: string;
  reason: string;
  /** The first occurrence's start; a recurring downtime repeats it every day or week. */
  startsAt: Date;
  durationMinutes: number;
  recurrence: Recurrence;
  repeatUntil: Date | null;
  createdByLabel: string;
  cancelledAt: Date | null;
  cancelledByLabel: string | null;
  createdAt: Date;
  updatedAt: Date;
}
