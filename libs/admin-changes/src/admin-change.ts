import {
  AdminChange,
  AdminChangeData,
  ChangeTarget,
  ChangedFields,
  EventParty,
} from '@agp/contracts';

import { DiffOptions, diffFields } from './diff-fields';

export interface ChangeInput extends DiffOptions {
  target: ChangeTarget;
  before?: object | null;
  after?: object | null;
}

/** What a change did to one resource, as the lifecycle types carry it in `details` (D42). */
export function changedFields(input: ChangeInput): ChangedFields {
  return { target: input.target, ...diffFields(input.before, input.after, input) };
}

export function adminChangeData(
  actor: EventParty,
  change: AdminChange,
  input: ChangeInput,
): AdminChangeData {
  const { target } = input;
  const changed = changedFields(input);
  // The export's columns are D17's: the summary is where a CSV reader sees which fields changed.
  const what =
    change === 'UPDATED' && changed.fields.length ? `: ${changed.fields.join(', ')}` : '';
  return {
    actor,
    sink: { type: target.kind, id: target.id, ...(target.name ? { label: target.name } : {}) },
    summary: `${target.kind.toLowerCase().replace(/_/g, ' ')} ${target.name ?? target.id} ${change.toLowerCase()}${what}`,
    change,
    ...changed,
  };
}
