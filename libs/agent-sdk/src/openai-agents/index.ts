import { Agent, OpenAIChatCompletionsModel, type Tool, run, tool } from '@openai/agents';
import OpenAI from 'openai';

import { Environment } from '../config/agent-config';
import { GovernedToolCatalog, NO_TOOLS, connectGoverned } from '../frameworks/governed-tools';
import { WrapperSettings, readWrapperSettings } from '../frameworks/wrapper-settings';
import { AgentRuntime } from '../runtime/agent-runtime';
import { ServedAgent, serveAgent } from '../server/serve-agent';

export interface GovernedOpenAIAgentOptions {
  name: string;
  description?: string;
  instructions?: string;
  prefix?: string;
  env?: Environment;
}

/** Standalone otherwise: the provider reached with LLM_API_KEY, no tools, no discovery. */
export interface GovernedOpenAIAgent {
  settings: WrapperSettings;
  runtime?: AgentRuntime;
  agent: Agent;
  run(input: string): Promise<string>;
  serve(options?: { host?: string; port?: number; publicUrl?: string }): Promise<ServedAgent>;
  close(): Promise<void>;
}

function toolsOf(catalog: GovernedToolCatalog): Tool[] {
  return catalog.tools.map((governed) =>
    tool({
      name: governed.name,
      description: governed.description,
      parameters: governed.inputSchema as Parameters<typeof tool>[0]['parameters'] & object,
      strict: false,
      execute: async (input) =>
        JSON.stringify(await governed.call((input ?? {}) as Record<string, unknown>)),
    } as Parameters<typeof tool>[0]),
  );
}

export async function createGovernedOpenAIAgent(
  options: GovernedOpenAIAgentOptions,
): Promise<GovernedOpenAIAgent> {
  const settings = readWrapperSettings({
    env: options.env,
    prefix: options.prefix,
    readWebhookSecret: false,
    readGatewayAndTemperature: false,
  });
  const governed = settings.runtime ? await connectGoverned(settings.runtime) : undefined;
  const runtime = governed?.runtime;
  const catalog = governed?.catalog ?? NO_TOOLS;
  const client = governed
    ? new OpenAI({
        baseURL: governed.llmBaseUrl,
        // The governed fetch puts the agent's token in its place; the provider key stays in the relay (D37).
        apiKey: 'agp-governed',
        fetch: governed.fetch,
        maxRetries: 0,
      })
    : // A local provider may need no key; a hosted one answers 401 to the placeholder.
      new OpenAI({ baseURL: settings.llmBaseUrl, apiKey: settings.llmApiKey ?? 'unset' });
  const agent = new Agent({
    name: options.name,
    instructions: options.instructions ?? '',
    model: new OpenAIChatCompletionsModel(client, settings.llmModel),
    tools: toolsOf(catalog),
  });
  const runOnce = async (input: string): Promise<string> => {
    const result = await run(agent, input);
    const output: unknown = result.finalOutput;
    return typeof output === 'string' ? output : JSON.stringify(output ?? '');
  };
  return {
    settings,
    ...(runtime ? { runtime } : {}),
    agent,
    run: runOnce,
    serve: (serveOptions = {}) =>
      serveAgent({
        name: options.name,
        description: options.description,
        respond: runOnce,
        runtime,
        host: serveOptions.host ?? settings.host,
        port: serveOptions.port ?? settings.port,
        publicUrl: serveOptions.publicUrl,
      }),
    close: async () => {
      runtime?.stop();
      await catalog.close();
    },
  };
}
