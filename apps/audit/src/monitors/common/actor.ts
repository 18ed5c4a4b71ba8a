import { Principal } from '@agp/auth';

import { Actor } from '../monitors.types';

/** D14: the label is the user's display name or e-mail (the principal's label). */
export function actorOf(principal: Principal): Actor {
  return { id: principal.subject, label: principal.label, kind: principal.kind };
}
