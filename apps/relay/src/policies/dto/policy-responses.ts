import { PolicyBinding, PolicyGroup, PolicyVersion } from '../policy.types';

export type { PolicyTestOutcome, Reference } from '../policy.types';

// The API shows these records as the repositories read them; the interfaces give the OpenAPI
// schemas (F24) and the console's contracts their names.
/* eslint-disable @typescript-eslint/no-empty-object-type -- a named schema, nothing to add */
export interface PolicyGroupResponse extends PolicyGroup {}

/** The specification's policy group version, plus its own `id` and `retiredAt`. */
export interface PolicyVersionResponse extends PolicyVersion {}

/** The specification's policy binding; `version` is the binding's own revision (R5). */
export interface PolicyBindingResponse extends PolicyBinding {}
