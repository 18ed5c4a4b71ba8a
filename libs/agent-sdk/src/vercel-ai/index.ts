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
  instructions?: string;
  prefix?: string;
  env?: Environment;
  maxSteps?: number;
}

/** Otherwise it runs standalone. */
export interface GovernedAiAgent {
  settings: WrapperSettings;
  runtime?: AgentRuntime;
  model: LanguageModel;
  tools: ToolSet;
  generate(prompt: string): Promise<string>;
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
