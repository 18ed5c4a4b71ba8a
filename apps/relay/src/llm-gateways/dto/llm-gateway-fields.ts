import { ValidationOptions, ValidateBy, buildMessage } from 'class-validator';

/** The most providers a gateway fails over through, and the most model aliases it maps. */
export const MAX_GATEWAY_PROVIDERS = 16;
const MAX_MODEL_MAP_ENTRIES = 500;
const MAX_MODEL_NAME = 200;

function isModelName(value: unknown): boolean {
  return typeof value === 'string' && value.length >= 1 && value.length <= MAX_MODEL_NAME;
}

/**
 * D39: a gateway's model map, `{"<model the agent names>": "<model sent to the provider>"}`: an
 * object of at most 500 entries whose keys and values are model names (1–200 characters).
 */
export function IsModelMap(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isModelMap',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= MAX_MODEL_MAP_ENTRIES &&
          Object.entries(value).every(([alias, model]) => isModelName(alias) && isModelName(model)),
        defaultMessage: buildMessage(
          () =>
            `modelMap must be an object of at most ${MAX_MODEL_MAP_ENTRIES} entries mapping a model name to a model name (each 1–${MAX_MODEL_NAME} characters)`,
          options,
        ),
      },
    },
    options,
  );
}
