export * from './claim-loop';
export * from './claim-loop-worker';
export * from './clock';
export * from './job-runs';
export * from './scheduled-job';
export * from './scheduler';
export * from './scheduler.provider';
