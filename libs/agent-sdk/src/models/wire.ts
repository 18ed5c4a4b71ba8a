import { AgentSdkError } from '../errors';

export type WireObject = Record<string, unknown>;

/** The platform answered something the model cannot read (a contract mismatch, not a user error). */
export class ModelParseError extends AgentSdkError {}

export function asObject(value: unknown, model: string): WireObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ModelParseError(`${model}: expected an object`);
  }
  return value as WireObject;
}

function first(raw: WireObject, names: readonly string[]): unknown {
  for (const name of names) {
    if (raw[name] !== undefined && raw[name] !== null) {
      return raw[name];
    }
  }
  return undefined;
}

export function optionalString(raw: WireObject, ...names: string[]): string | undefined {
  const value = first(raw, names);
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new ModelParseError(`${names[0]}: expected a string`);
  }
  return value;
}

export function requiredString(raw: WireObject, model: string, ...names: string[]): string {
  const value = optionalString(raw, ...names);
  if (value === undefined) {
    throw new ModelParseError(`${model}: ${names[0]} is required`);
  }
  return value;
}

export function optionalNumber(raw: WireObject, ...names: string[]): number | undefined {
  const value = first(raw, names);
  if (value === undefined) {
    return undefined;
  }
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    throw new ModelParseError(`${names[0]}: expected a number`);
  }
  return number;
}

export function optionalStringArray(raw: WireObject, ...names: string[]): string[] | undefined {
  const value = first(raw, names);
  if (value === undefined) {
    return undefined;
  }
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new ModelParseError(`${names[0]}: expected an array of strings`);
  }
  return value as string[];
}
