import { DEFAULT_DETECTOR_SETTINGS } from '../config/detector-settings';
import { assessCount, assessErrorRate, severityOf } from './baseline';

const volume = DEFAULT_DETECTOR_SETTINGS.AGENT_VOLUME_ANOMALY;
const errorRate = DEFAULT_DETECTOR_SETTINGS.MCP_SERVER_ERROR_RATE_SPIKE;

describe('assessCount', () => {
  it('should find a SPIKE when the window is four times its steady baseline', () => {
    expect(assessCount(400, [100, 95, 105, 98, 102], volume)).toMatchObject({
      direction: 'SPIKE',
      expected: 100,
      ratio: 4,
    });
  });

  it('should find a DROP when a busy subject goes almost silent', () => {
    expect(assessCount(5, [100, 95, 105, 98, 102], volume)).toMatchObject({
      direction: 'DROP',
      ratio: 0.05,
    });
  });

  it('should find nothing when the window is within ordinary noise', () => {
    expect(assessCount(125, [100, 95, 105, 98, 102], volume)).toBeUndefined();
    expect(assessCount(80, [100, 95, 105, 98, 102], volume)).toBeUndefined();
  });

  it('should find nothing when a quiet subject is below the volume guard', () => {
    expect(assessCount(25, [1, 0, 2, 1, 0], volume)).toBeUndefined();
  });

  it('should find no DROP when the baseline is below its volume guard', () => {
    expect(assessCount(0, [30, 28, 35], volume)).toBeUndefined();
  });

  it('should find nothing when the baseline swings as much as the window does', () => {
    expect(assessCount(400, [100, 450, 90, 380, 120], volume)).toBeUndefined();
  });

  it('should find nothing when there is no baseline day', () => {
    expect(assessCount(400, [], volume)).toBeUndefined();
  });
});

describe('assessErrorRate', () => {
  it('should find a SPIKE when the error rate jumps from 2 % to 30 %', () => {
    expect(assessErrorRate(60, 200, 40, 2_000, errorRate)).toMatchObject({
      direction: 'SPIKE',
      expected: 4,
      ratio: 15,
    });
  });

  it('should find nothing when errors rise only with the traffic', () => {
    expect(assessErrorRate(12, 600, 40, 2_000, errorRate)).toBeUndefined();
  });

  it('should find nothing when too few calls were made', () => {
    expect(assessErrorRate(10, 20, 40, 2_000, errorRate)).toBeUndefined();
  });
});

describe('severityOf', () => {
  it('should rise with the size of a spike', () => {
    expect([2, 3, 5, 10].map((ratio) => severityOf('SPIKE', ratio))).toEqual([
      'LOW',
      'MEDIUM',
      'HIGH',
      'CRITICAL',
    ]);
  });

  it('should rise with the depth of a drop', () => {
    expect([0.5, 0.3, 0.1, 0].map((ratio) => severityOf('DROP', ratio))).toEqual([
      'LOW',
      'MEDIUM',
      'HIGH',
      'CRITICAL',
    ]);
  });
});
