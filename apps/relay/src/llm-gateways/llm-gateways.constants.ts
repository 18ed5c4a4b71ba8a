export const LLM_GATEWAYS_CATALOG = Symbol('relay:llm-gateways-catalog');
