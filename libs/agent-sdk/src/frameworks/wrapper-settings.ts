import {
  AgentConfig,
  DEFAULT_ENV_PREFIX,
  Environment,
  readVariable,
  runtimeConfigFromEnv,
} from '../config/agent-config';
import { ConfigurationError } from '../errors';

/** What a framework wrapper reads (specification, Authentication 6 and 7) (A3). */
export interface WrapperSettings {
  runtime?: AgentConfig;
  llmGatewayId?: string;
  /** `LLM_API_KEY`: the provider's key, used only standalone (D37: the relay holds it otherwise). */
  llmApiKey?: string;
  /** `LLM_BASE_URL`: the provider, standalone only (OpenAI's by default). */
  llmBaseUrl: string;
  llmModel: string;
  llmTemperature?: number;
  host: string;
  port: number;
  logLevel: string;
  agentVersion: string;
}

export interface WrapperSettingsOptions {
  env?: Environment;
  prefix?: string;
  /** One wrapper reads `<PREFIX>_WEBHOOK_SECRET`, the other does not (Authentication 6). */
  readWebhookSecret: boolean;
  readGatewayAndTemperature: boolean;
}

export const DEFAULT_LLM_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_LLM_MODEL = 'gpt-4o-mini';

function number(env: Environment, name: string, check: (n: number) => boolean): number | undefined {
  const value = readVariable(env, name);
  if (value === undefined) {
    return undefined;
  }
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || !check(parsed)) {
    throw new ConfigurationError(`${name} is not valid: ${value}`, name);
  }
  return parsed;
}

export function readWrapperSettings(options: WrapperSettingsOptions): WrapperSettings {
  const env = options.env ?? process.env;
  const runtime = runtimeConfigFromEnv({
    env,
    prefix: options.prefix ?? DEFAULT_ENV_PREFIX,
    readWebhookSecret: options.readWebhookSecret,
  });
  const settings: WrapperSettings = {
    ...(runtime ? { runtime } : {}),
    llmBaseUrl: readVariable(env, 'LLM_BASE_URL') ?? DEFAULT_LLM_BASE_URL,
    llmModel: readVariable(env, 'LLM_MODEL') ?? DEFAULT_LLM_MODEL,
    host: readVariable(env, 'HOST') ?? '0.0.0.0',
    port: number(env, 'PORT', (n) => Number.isInteger(n) && n >= 0 && n < 65_536) ?? 8080,
    logLevel: readVariable(env, 'LOG_LEVEL') ?? 'info',
    agentVersion: readVariable(env, 'AGENT_VERSION') ?? '0.1.0',
  };
  const apiKey = readVariable(env, 'LLM_API_KEY');
  if (apiKey) {
    settings.llmApiKey = apiKey;
  }
  if (options.readGatewayAndTemperature) {
    const gateway = readVariable(env, 'LLM_GATEWAY_ID');
    const temperature = number(env, 'LLM_TEMPERATURE', (n) => n >= 0 && n <= 2);
    if (gateway) {
      settings.llmGatewayId = gateway;
    }
    if (temperature !== undefined) {
      settings.llmTemperature = temperature;
    }
  }
  return settings;
}
