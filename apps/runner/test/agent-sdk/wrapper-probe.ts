import { RunContext } from '@openai/agents';

import { createGovernedOpenAIAgent } from '@agp/agent-sdk/openai-agents';
import { serveAgent, textMessage } from '@agp/agent-sdk/server';
import { createGovernedAiAgent } from '@agp/agent-sdk/vercel-ai';

/**
 * Runs one framework wrapper as an agent process would (its own process, configured only by the
 * environment) and prints what the framework was given: whether it is governed, its tool names,
 * the answer of `<namespace>__echo` called as the framework calls tools, its served card and
 * admin status. Run by agent-sdk-wrappers.e2e-spec.ts.
 */
async function probeVercelAi(text: string): Promise<Record<string, unknown>> {
  const agent = await createGovernedAiAgent({ name: 'probe-ai', description: 'a probe' });
  try {
    const names = Object.keys(agent.tools);
    const echo = names.find((name) => name.endsWith('__echo'));
    const result = echo
      ? await agent.tools[echo]?.execute?.(
          { text },
          { toolCallId: 'c1', messages: [], context: {} },
        )
      : undefined;
    const governed = agent.runtime !== undefined;
    const served = await agent.serve({ host: '127.0.0.1', port: 0 });
    const card = await (await fetch(`${served.url}/.well-known/agent-card.json`)).json();
    const admin = await fetch(`${served.url}/admin/status`);
    const status = admin.ok ? await admin.json() : admin.status;
    await served.close();
    return { governed, names, result, card, status };
  } finally {
    await agent.close();
  }
}

async function probeOpenAiAgents(text: string): Promise<Record<string, unknown>> {
  const agent = await createGovernedOpenAIAgent({ name: 'probe-openai' });
  try {
    const names = agent.agent.tools.map((tool) => tool.name);
    const echo = agent.agent.tools.find((tool) => tool.name.endsWith('__echo'));
    const result =
      echo && echo.type === 'function'
        ? await echo.invoke(new RunContext(), JSON.stringify({ text }))
        : undefined;
    return { governed: agent.runtime !== undefined, names, result };
  } finally {
    await agent.close();
  }
}

/** Both wrappers' models through the platform's LLM gateway: one run each, and one AI SDK stream. */
async function probeModels(text: string): Promise<Record<string, unknown>> {
  // `ai` is an ES module only; this probe is compiled as CommonJS.
  const { streamText } = await import('ai');
  const ai = await createGovernedAiAgent({ name: 'probe-ai' });
  const openai = await createGovernedOpenAIAgent({ name: 'probe-openai' });
  try {
    const whole = await ai.generate(`whole ${text}`);
    let streamed = '';
    let parts = 0;
    for await (const part of streamText({ model: ai.model, prompt: `streamed ${text}` })
      .textStream) {
      streamed += part;
      parts += 1;
    }
    const agents = await openai.run(`agents ${text}`);
    return {
      governed: ai.runtime !== undefined && openai.runtime !== undefined,
      names: [],
      whole,
      streamed,
      parts,
      agents,
    };
  } finally {
    await ai.close();
    await openai.close();
  }
}

/** The server helper answering an official A2A client (protocol 1.0) with its responder's text. */
async function probeServer(text: string): Promise<Record<string, unknown>> {
  const { ClientFactory } = await import('@a2a-js/sdk/client');
  const served = await serveAgent({
    name: 'probe-server',
    respond: async (incoming) => `answered: ${incoming}`,
    host: '127.0.0.1',
    port: 0,
  });
  try {
    const client = await new ClientFactory().createFromUrl(served.url);
    const reply = await client.sendMessage({
      tenant: '',
      message: textMessage(text, 1),
      configuration: undefined,
      metadata: {},
    });
    return { governed: false, names: [], reply, card: served.card };
  } finally {
    await served.close();
  }
}

async function main(): Promise<void> {
  const [which, text = ''] = process.argv.slice(2);
  const probes: Record<string, (text: string) => Promise<Record<string, unknown>>> = {
    'vercel-ai': probeVercelAi,
    'openai-agents': probeOpenAiAgents,
    server: probeServer,
    models: probeModels,
  };
  const probe = probes[which ?? ''] ?? probeOpenAiAgents;
  process.stdout.write(`${JSON.stringify(await probe(text))}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`,
  );
  process.exit(1);
});
