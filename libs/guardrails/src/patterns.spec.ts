import { performance } from 'node:perf_hooks';

import { compileLinear, detectPatternSet, detectPatterns, leadingLiteral } from './patterns';

describe('tenant patterns on the linear-time engine (GR13)', () => {
  it('should refuse back-references, look-around and flags the engine lacks, with the reason', () => {
    const refused = ['(a)\\1', '(?<=a)b', '(?!x)y'].map((p) => compileLinear(p));
    expect(refused.map((r) => r.ok)).toEqual([false, false, false]);
    expect(refused[0]).toMatchObject({ reason: expect.stringContaining('back-references') });
    expect(compileLinear('abc', 'i')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('flags'),
    });
    expect(compileLinear('(')).toMatchObject({ ok: false });
    expect(compileLinear('')).toMatchObject({ ok: false });
  });

  it('should find every match labelled by its pattern', () => {
    const ticket = compileLinear('TCK-\\d{6}');
    const project = compileLinear('^project [A-Z][a-z]+$', 'm');
    if (!ticket.ok || !project.ok) {
      throw new Error('patterns should compile');
    }
    const text = 'see TCK-123456 and TCK-654321\nproject Falcon';
    const found = detectPatterns(text, [
      { label: 'TICKET', regex: ticket.regex },
      { label: 'PROJECT', regex: project.regex },
    ]);
    expect(found.map((f) => [f.type, text.slice(f.start, f.end)])).toEqual([
      ['TICKET', 'TCK-123456'],
      ['TICKET', 'TCK-654321'],
      ['PROJECT', 'project Falcon'],
    ]);
  });

  it('should run a pattern that backtracks catastrophically elsewhere in linear time', () => {
    const compiled = compileLinear('(a|aa)+b');
    if (!compiled.ok) {
      throw new Error(compiled.reason);
    }
    const label = [{ label: 'X', regex: compiled.regex }];
    // The backtracking engine takes seconds on 30 characters of this input; doubling them doubles it.
    // So the floor (1 s, over a loaded machine's pauses) still tells the two engines apart.
    const t0 = performance.now();
    expect(detectPatterns('a'.repeat(8_192), label)).toEqual([]);
    const small = performance.now() - t0;
    const t1 = performance.now();
    expect(detectPatterns('a'.repeat(32_768), label)).toEqual([]);
    expect(performance.now() - t1).toBeLessThan(Math.max(8 * small, 1_000));
  });

  it('should keep overlapping matches of two labels of a set, each with its mode (GR16)', () => {
    const order = compileLinear('ORD-\\d+');
    const digits = compileLinear('\\d{3,}');
    if (!order.ok || !digits.ok) {
      throw new Error('patterns should compile');
    }
    const text = 'ORD-1234 shipped';
    const found = detectPatternSet(text, [
      { label: 'ORDER', regex: order.regex, mode: 'MUST_NOT_MATCH' },
      { label: 'NUMBER', regex: digits.regex, mode: 'DETECT' },
    ]);
    expect(found.map((f) => [f.type, text.slice(f.start, f.end), f.mode])).toEqual([
      ['ORDER', 'ORD-1234', 'MUST_NOT_MATCH'],
      ['NUMBER', '1234', 'DETECT'],
    ]);
  });

  it('should name the literal a match must start with only when every match does (GR18)', () => {
    expect(leadingLiteral('TCK-[0-9]{6}')).toBe('TCK-');
    expect(leadingLiteral('db\\.corp\\.internal')).toBe('db.corp.internal');
    expect(leadingLiteral('abc+')).toBe('ab');
    expect(leadingLiteral('ab?c')).toBeUndefined();
    expect(leadingLiteral('TCK-1|ORD-2')).toBeUndefined();
    expect(leadingLiteral('^TCK')).toBeUndefined();
    expect(leadingLiteral('\\d{3}-x')).toBeUndefined();
    expect(leadingLiteral('[a-z]+\\.corp')).toBeUndefined();

    const ticket = compileLinear('TCK-[0-9]{6}');
    if (!ticket.ok) {
      throw new Error('should compile');
    }
    const set = [
      { label: 'T', regex: ticket.regex, mode: 'DETECT' as const, literal: ticket.literal },
    ];
    expect(detectPatternSet('no ticket here', set)).toEqual([]);
    expect(detectPatternSet('see TCK-123456', set)).toEqual([
      { type: 'T', start: 4, end: 14, score: 1, mode: 'DETECT' },
    ]);
  });
});
