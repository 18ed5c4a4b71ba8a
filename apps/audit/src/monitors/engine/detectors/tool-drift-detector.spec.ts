import { evidenceProblems } from '../../alerts/evidence-validation';
import { toolDriftFinding } from './tool-drift-detector';

describe(toolDriftFinding.name, () => {
  const serverId = '0b8f9d8e-6c1a-4c39-9d59-2a7f1f7d2b11';
  const changed = {
    occurredAt: '2026-12-07T06:00:00.000Z',
    details: {
      change: 'TOOL_DEFINITION_CHANGED',
      mcpServerId: serverId,
      tool: 'search',
      definitionHash: 'a'.repeat(64),
      pinnedHash: 'b'.repeat(64),
      changedFields: ['description'],
      toolDrift: 'HOLD',
    },
  };

  it('should find a HIGH drift of the MCP server with valid evidence when a pinned tool changed', () => {
    const sut = toolDriftFinding(changed)!;

    expect(sut).toMatchObject({
      detector: 'TOOL_DEFINITION_DRIFT',
      severity: 'HIGH',
      subject: { type: 'MCP_SERVER', id: serverId },
      evidence: { kind: 'TOOL_DEFINITION', tool: 'search', changedFields: ['description'] },
    });
    expect(evidenceProblems(sut.evidence)).toEqual([]);
  });

  it('should give the same finding id when the same change is told twice, and another for another hash', () => {
    const again = toolDriftFinding({ ...changed, occurredAt: '2026-12-07T07:00:00.000Z' })!;
    const other = toolDriftFinding({
      ...changed,
      details: { ...changed.details, definitionHash: 'c'.repeat(64) },
    })!;

    expect(again.findingId).toBe(toolDriftFinding(changed)!.findingId);
    expect(other.findingId).not.toBe(again.findingId);
  });

  it('should find nothing when the lifecycle event is not about a tool definition', () => {
    expect(
      toolDriftFinding({ ...changed, details: { change: 'UPDATED', mcpServerId: serverId } }),
    ).toBeUndefined();
    expect(toolDriftFinding({ occurredAt: changed.occurredAt })).toBeUndefined();
  });
});
