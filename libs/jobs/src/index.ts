export * from './claim-loop';
export * from './clock';
export * from './job-runs';
export * from './scheduled-job';
export * from './scheduler';
export * from './scheduler.provider';
