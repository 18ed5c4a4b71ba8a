import { PolicyBinding, PolicyGroup, PolicyVersion } from '../policy.types';

export type { PolicyTestOutcome, Reference } from '../policy.types';

/** The specification's policy group: the record as the repository reads it. */
export type PolicyGroupResponse = PolicyGroup;

/** The specification's policy group version, plus its own `id` and `retiredAt`. */
export type PolicyVersionResponse = PolicyVersion;

/** The specification's policy binding; `version` is the binding's own revision (R5). */
export type PolicyBindingResponse = PolicyBinding;
