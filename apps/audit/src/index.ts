export * from './config/audit.env';
export * from './database/data-source';
export * from './database/tokens';
export * from './audit.module';
export { DetectorTickService } from './monitors/detectors/detector-tick.service';
