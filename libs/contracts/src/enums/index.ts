// No payload classes or decorators: the console's browser bundle imports this (issue 16).
export * from './audit-event-type';
export * from './evaluation-pack';
export * from './identity';
export * from './monitor';
export * from './policy';
export * from './refusal-codes';
