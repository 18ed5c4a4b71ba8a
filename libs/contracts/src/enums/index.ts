// The value lists alone, without the payload classes and their decorators: what a browser bundle
// (the console, issue 16) takes from the contracts as `@agp/contracts/enums`.
export * from './audit-event-type';
export * from './evaluation-pack';
export * from './identity';
export * from './monitor';
export * from './policy';
export * from './refusal-codes';
