import { BindingLevel } from '@agp/contracts';
import { FieldError } from '@agp/http';

export type ReferenceField = 'agentId' | 'sourceAgentId' | 'sinkAgentId' | 'channelId';

/** D23: the references each level needs; any other reference is refused rather than ignored. */
export const REFERENCES_OF_LEVEL: Readonly<Record<BindingLevel, readonly ReferenceField[]>> = {
  TENANT: [],
  AGENT: ['agentId'],
  SUBSCRIPTION: ['sourceAgentId', 'sinkAgentId'],
  CHANNEL: ['channelId'],
  CHANNEL_SUBSCRIPTION: ['channelId', 'agentId'],
};

const ALL_REFERENCES: readonly ReferenceField[] = [
  'agentId',
  'sourceAgentId',
  'sinkAgentId',
  'channelId',
];

export function bindingReferenceErrors(
  level: BindingLevel,
  given: Partial<Record<ReferenceField, string>>,
): FieldError[] {
  const needed = REFERENCES_OF_LEVEL[level];
  return ALL_REFERENCES.flatMap((field): FieldError[] => {
    const isPresent = given[field] !== undefined;
    if (needed.includes(field) && !isPresent) {
      return [{ field, message: `${field} is required for a ${level} binding` }];
    }
    if (!needed.includes(field) && isPresent) {
      return [{ field, message: `${field} does not apply to a ${level} binding` }];
    }
    return [];
  });
}
