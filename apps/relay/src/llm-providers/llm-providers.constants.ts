export const LLM_PROVIDERS_CATALOG = Symbol('relay:llm-providers-catalog');

/** D39: how long the relay waits for a provider's first byte before it fails over (T17). */
export const MIN_PROVIDER_TIMEOUT_MS = 100;
export const MAX_PROVIDER_TIMEOUT_MS = 600_000;

export const MAX_MODELS = 500;
export const MAX_MODEL_NAME = 200;
