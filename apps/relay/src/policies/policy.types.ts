import { BindingLevel } from '@agp/contracts';

/** D49: an ENFORCE binding decides hops; a SHADOW binding is only watched beside them (G7). */
export const BINDING_MODES = ['ENFORCE', 'SHADOW'] as const;
export type BindingMode = (typeof BINDING_MODES)[number];

/** A policy group with its latest version and how many versions it has. */
export interface PolicyGroup {
  id: string;
  name: string;
  description?: string;
  data: Record<string, unknown>;
  latestVersion?: string;
  versionCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A version of a policy group, with how many bindings name it. */
export interface PolicyVersion {
  id: string;
  groupId: string;
  version: string;
  name: string;
  description?: string;
  regoSource: string;
  regoSourceHash: string;
  /** The version's test module, when one was attached (issue 15). */
  testSource?: string;
  /** What each test reported when the version was created (all passed or were skipped). */
  testResults?: PolicyTestOutcome[];
  bindingCount: number;
  validFrom: string;
  validTo?: string;
  retiredAt?: string;
  createdAt: string;
}

/** One `test_` rule of a version's test module and its outcome at creation. */
export interface PolicyTestOutcome {
  name: string;
  status: 'PASS' | 'SKIP';
}

export interface Reference {
  id: string;
  name: string;
}

/** A policy binding with the names of what it binds; `version` is its own revision (R5). */
export interface PolicyBinding {
  bindingId: string;
  version: string;
  groupId: string;
  groupName: string;
  groupVersion: string;
  isLatestGroupVersion: boolean;
  bindingLevel: BindingLevel;
  /** D49: ENFORCE (the default) or SHADOW. */
  mode: BindingMode;
  agent?: Reference;
  sourceAgent?: Reference;
  sinkAgent?: Reference;
  channel?: Reference;
  priority: number;
  validFrom: string;
  validTo?: string;
  createdAt: string;
  updatedAt: string;
}
