import { bindingReferenceErrors } from './binding-references';

describe('bindingReferenceErrors', () => {
  const id = '7c1f2a34-1b2c-4d5e-8f90-0123456789ab';

  it('should accept exactly the references of each level when they are given', () => {
    expect(bindingReferenceErrors('TENANT', {})).toEqual([]);
    expect(bindingReferenceErrors('AGENT', { agentId: id })).toEqual([]);
    expect(bindingReferenceErrors('SUBSCRIPTION', { sourceAgentId: id, sinkAgentId: id })).toEqual(
      [],
    );
    expect(bindingReferenceErrors('CHANNEL', { channelId: id })).toEqual([]);
    expect(bindingReferenceErrors('CHANNEL_SUBSCRIPTION', { channelId: id, agentId: id })).toEqual(
      [],
    );
  });

  it('should list every missing and every superfluous reference when the level does not fit', () => {
    const fields = bindingReferenceErrors('SUBSCRIPTION', {
      agentId: id,
      sinkAgentId: id,
      channelId: id,
    }).map((e) => e.field);
    expect(fields.sort()).toEqual(['agentId', 'channelId', 'sourceAgentId']);
  });
});
