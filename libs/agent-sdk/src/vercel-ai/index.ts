import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  type LanguageModel,
  type ToolSet,
  dynamicTool,
  generateText,
  jsonSchema,
  stepCountIs,
} from 'ai';

import { Environment } from '../config/agent-config';
import { GovernedToolCatalog, NO_TOOLS, connectGoverned } from '../frameworks/governed-tools';
import { WrapperSettings, readWrapperSettings } from '../frameworks/wrapper-settings';
import { AgentRuntime } from '../runtime/agent-runtime';
import { ServedAgent, serveAgent } from '../server/serve-agent';

export interface GovernedAiAgentOptions {
  name: string;
  description?: string;
  /** The system prompt. */
  instructions?: string;
  /** `SVC` by default. */
  prefix?: string;
  env?: Environment;
  /** Most tool-call rounds of one run (8 by default). */
  maxSteps?: number;
}

/**
 * An agent on the Vercel AI SDK, governed when the runtime variables are all set: its model goes
 * through the platform's LLM gateway (LLM_GATEWAY_ID, else the first it is subscribed to) and its
 * tools are the subscribed MCP servers' tools, called through the relay. Otherwise it runs
 * standalone: the provider reached directly with LLM_API_KEY, no tools, no discovery.
 */
export interface GovernedAiAgent {
  settings: WrapperSettings;
  runtime?: AgentRuntime;
  model: LanguageModel;
  tools: ToolSet;
  /** One run: the prompt, the model and the tools, up to `maxSteps` rounds; the final text. */
  generate(prompt: string): Promise<string>;
  /** Serves the agent over A2A with its card (and /admin when governed) on HOST:PORT. */
  serve(options?: { host?: string; port?: number; publicUrl?: string }): Promise<ServedAgent>;
  close(): Promise<void>;
}

function toolSetOf(catalog: GovernedToolCatalog): ToolSet {
  return Object.fromEntries(
    catalog.tools.map((tool) => [
      tool.name,
      dynamicTool({
        description: tool.description,
        inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
        execute: (input) => tool.call((input ?? {}) as Record<string, unknown>),
      }),
    ]),
  );
}

export async function createGovernedAiAgent(
  options: GovernedAiAgentOptions,
): Promise<GovernedAiAgent> {
  const settings = readWrapperSettings({
    env: options.env,
    prefix: options.prefix,
    readWebhookSecret: true,
    readGatewayAndTemperature: true,
  });
  const governed = settings.runtime
    ? await connectGoverned(settings.runtime, settings.llmGatewayId)
    : undefined;
  const runtime = governed?.runtime;
  const catalog = governed?.catalog ?? NO_TOOLS;
  const model: LanguageModel = createOpenAICompatible(
    governed
      ? { name: 'agp', baseURL: governed.llmBaseUrl, fetch: governed.fetch }
      : {
          name: 'provider',
          baseURL: settings.llmBaseUrl,
          ...(settings.llmApiKey ? { apiKey: settings.llmApiKey } : {}),
        },
  ).chatModel(settings.llmModel);
  const tools = toolSetOf(catalog);
  const generate = async (prompt: string): Promise<string> => {
    const result = await generateText({
      model,
      tools,
      prompt,
      ...(options.instructions ? { system: options.instructions } : {}),
      ...(settings.llmTemperature !== undefined ? { temperature: settings.llmTemperature } : {}),
      stopWhen: stepCountIs(options.maxSteps ?? 8),
    });
    return result.text;
  };
  return {
    settings,
    ...(runtime ? { runtime } : {}),
    model,
    tools,
    generate,
    serve: (serveOptions = {}) =>
      serveAgent({
        name: options.name,
        description: options.description,
        version: settings.agentVersion,
        respond: generate,
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
