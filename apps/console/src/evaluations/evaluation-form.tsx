import { Select, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { EXPECTED_ACTIONS, EvaluationEndpointType, ExpectedAction } from '@agp/contracts/enums';

import { NewEvaluation, evaluations } from '../api/evaluations-api';
import { useAction } from '../api/use-action';
import { CreateForm } from '../components/create-form';
import { useEndpoints } from '../registry/use-endpoint-names';

/**
 * D27: an evaluation of one hop, from an agent to what it calls, with the action expected of the
 * policies; patterns, assertions and multi-hop conversations stay with the API.
 */
export function EvaluationForm({ packId }: { packId: string }) {
  const [name, setName] = useState('');
  const [sourceId, setSourceId] = useState<string | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  const [input, setInput] = useState('');
  const [toolName, setToolName] = useState('');
  const [expectedAction, setExpectedAction] = useState<ExpectedAction>('BLOCK');
  const endpoints = useEndpoints();
  // A target's value carries its type: `MCP_SERVER:<id>`.
  const targets = [
    { group: 'MCP servers', type: 'MCP_SERVER', items: endpoints.mcpServers },
    { group: 'Agents', type: 'AGENT', items: endpoints.agents },
    { group: 'LLM gateways', type: 'LLM_GATEWAY', items: endpoints.llmGateways },
  ].map(({ group, type, items }) => ({
    group,
    items: items.map((e) => ({ value: `${type}:${e.value}`, label: e.label })),
  }));
  const create = useAction(() => {
    const [type, id] = (target ?? ':').split(':');
    const source = { type: 'AGENT' as const, id: sourceId ?? '' };
    const sink = { type: type as EvaluationEndpointType, id };
    const evaluation: NewEvaluation = {
      name,
      source,
      target: sink,
      input,
      hops: [{ source, sink, expectedAction, ...(toolName ? { toolName } : {}) }],
    };
    return evaluations.createEvaluation(packId, evaluation);
  }, ['evaluation-packs']);

  return (
    <CreateForm
      legend="Add an evaluation"
      submitLabel="Add evaluation"
      pending={create.isPending}
      error={create.error}
      onSubmit={() => create.mutate(undefined, { onSuccess: () => setName('') })}
    >
      <TextInput
        label="Evaluation name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        required
      />
      <Select
        label="From agent"
        data={endpoints.agents}
        value={sourceId}
        onChange={setSourceId}
        required
      />
      <Select label="To" data={targets} value={target} onChange={setTarget} required />
      <Textarea
        label="Input"
        value={input}
        onChange={(e) => setInput(e.currentTarget.value)}
        required
        autosize
        miw={240}
      />
      <TextInput
        label="Tool name"
        description="For an MCP server"
        value={toolName}
        onChange={(e) => setToolName(e.currentTarget.value)}
      />
      <Select
        label="Expected action"
        data={EXPECTED_ACTIONS}
        value={expectedAction}
        onChange={(v) => setExpectedAction(v ?? 'BLOCK')}
        allowDeselect={false}
      />
    </CreateForm>
  );
}
