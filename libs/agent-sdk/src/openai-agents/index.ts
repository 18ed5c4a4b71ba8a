import { Agent, OpenAIChatCompletionsModel, type Tool, run, tool } from '@openai/agents';
import OpenAI from 'openai';

import { Environment } from '../config/agent-config';
import { ConfigurationError } from '../errors';
import {
  GovernedToolCatalog,
  chosenGateway,
  gatewayBaseUrl,
  governedToolCatalog,
} from '../frameworks/governed-tools';
import { WrapperSettings, readWrapperSettings } from '../frameworks/wrapper-settings';
import { AgentRuntime } from '../runtime/agent-runtime';
import { ServedAgent, serveAgent } from '../server/serve-agent';

export interface GovernedOpenAIAgentOptions {
  name: string;
  description?: string;
  instructions?: string;
  /** `SVC` by default. */
  prefix?: string;
  env?: Environment;
}

/**
 * An agent on the OpenAI Agents SDK, governed when the runtime variables are all set: its model is
 * the first LLM gateway it is subscribed to (through the relay), its tools the subscribed MCP
 * servers' tools called through the relay. Standalone otherwise: the provider reached with
 * LLM_API_KEY, no tools, no discovery. This wrapper reads neither the webhook secret nor a gateway
 * id nor a temperature (Authentication 6 and 7: those are the other wrapper's).
 */
export interface GovernedOpenAIAgent {
  settings: WrapperSettings;
  runtime?: AgentRuntime;
  agent: Agent;
  /** One run of the agent; its final output as text. */
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
  let runtime: AgentRuntime | undefined;
  let catalog: GovernedToolCatalog = { tools: [], close: async () => undefined };
  let client: OpenAI;
  if (settings.runtime) {
    runtime = new AgentRuntime({ config: settings.runtime });
    await runtime.start();
    catalog = await governedToolCatalog(runtime);
    const gatewayId = chosenGateway(runtime);
    if (!gatewayId) {
      throw new ConfigurationError(
        'the agent is subscribed to no LLM gateway (AGENT_TO_LLM_GATEWAY)',
        'llmGateway',
      );
    }
    client = new OpenAI({
      baseURL: gatewayBaseUrl(runtime, gatewayId),
      // The governed fetch replaces it with the agent's token; the provider key stays in the relay (D37).
      apiKey: 'agp-governed',
      fetch: runtime.client.governedFetch('svc:api') as typeof fetch,
      maxRetries: 0,
    });
  } else {
    // A local provider may need no key; a hosted one answers 401 to the placeholder.
    client = new OpenAI({ baseURL: settings.llmBaseUrl, apiKey: settings.llmApiKey ?? 'unset' });
  }
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
