import { compilePolicy } from '../policy';

function value(expr: string, input?: unknown): unknown {
  return compilePolicy({ 'b.rego': `package b\nv := ${expr}\n` }).evaluateRule('data.b.v', {
    input,
    now: new Date('2026-11-22T10:00:00Z'),
  });
}

describe('builtins', () => {
  it('should share the reached set across branches when reachable_paths walks a cycle, as OPA does', () => {
    // OPA's pathBuilder: "seven" reached under five→seven ends the path five→six at six.
    const graph = {
      one: ['two', 'five'],
      two: ['four'],
      four: ['three'],
      three: [''],
      five: ['seven', 'six'],
      six: ['nine', 'seven'],
      seven: ['eight'],
      eight: ['three'],
      nine: [''],
    };
    expect(value('graph.reachable_paths(input.g, {"one"})', { g: graph })).toEqual([
      ['one', 'five', 'seven', 'eight', 'three'],
      ['one', 'five', 'six'],
      ['one', 'five', 'six', 'nine'],
      ['one', 'two', 'four', 'three'],
    ]);
    // Two reached neighbours: the path is committed, then committed twice over.
    expect(value('graph.reachable_paths({"a": ["b"], "b": ["a", "a"]}, ["a"])')).toEqual([
      ['a', 'b'],
      ['a', 'b', 'a', 'b'],
    ]);
  });

  it('should format Go verbs when sprintf gets mixed values', () => {
    expect(
      value(
        'sprintf("%s=%d %.2f %v %x %5s|%-3d|", ["a", 7, 3.14159, [1, {"k": true}], 255, "r", 4])',
      ),
    ).toBe('a=7 3.14 [1, {"k": true}] ff     r|4  |');
  });

  it('should translate RE2 flags and classes when regex.match runs on JS', () => {
    expect(
      value(
        '[regex.match(`(?i)^abc$`, "ABC"), regex.match(`^[[:digit:]]+\\z`, "123"), regex.match(`(?P<y>\\d{4})`, "in 2026")]',
      ),
    ).toEqual([true, true, true]);
  });

  it('should expand Go templates when regex.replace has groups', () => {
    expect(value('regex.replace("2026-11-22", `(\\d+)-(\\d+)-(\\d+)`, "$3/$2/${1}")')).toBe(
      '22/11/2026',
    );
  });

  it('should match CIDRs and expand small networks when net built-ins are used', () => {
    expect(
      value(
        '[net.cidr_contains("10.0.0.0/8", "10.1.2.3"), net.cidr_contains("2001:db8::/32", "2001:db8::1"), count(net.cidr_expand("192.168.0.0/30"))]',
      ),
    ).toEqual([true, true, 4]);
  });

  it('should parse units exactly when amounts have fractions and suffixes', () => {
    expect(
      value(
        '[units.parse("1.5Ki"), units.parse("250m"), units.parse_bytes("2MB"), units.parse_bytes("1KiB")]',
      ),
    ).toEqual([1536, 0.25, 2000000, 1024]);
  });

  it('should read and write times in UTC when the time built-ins are chained', () => {
    expect(
      value(
        '[time.date(time.parse_rfc3339_ns("2026-02-28T23:00:00Z")), time.weekday(time.now_ns()), time.format(time.add_date(0, 0, 0, 1))]',
      ),
    ).toEqual([[2026, 2, 28], 'Sunday', '1970-01-02T00:00:00Z']);
  });

  it('should hash like node:crypto when crypto built-ins are called', () => {
    expect(value('[crypto.sha256("abc"), crypto.hmac.sha256("msg", "key")]')).toEqual([
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      '2d93cbc1be167bcb1637a4a23cbff01a7878f0c50ee833954ea5221bb1b8c628',
    ]);
  });

  it('should keep integers exact when they exceed 2^53', () => {
    const sut = compilePolicy({ 'b.rego': 'package b\nv := 9007199254740993 + 2\n' });

    expect(sut.evaluateValue('data.b.v')).toBe(9007199254740995n);
  });

  it('should compare semantic versions when pre-releases differ', () => {
    expect(
      value(
        '[semver.compare("1.2.3", "1.2.3-rc.1"), semver.compare("1.0.0-alpha.2", "1.0.0-alpha.10"), semver.is_valid("1.2")]',
      ),
    ).toEqual([1, -1, false]);
  });

  it('should match globs with delimiters when glob.match has a delimiter list', () => {
    expect(
      value(
        '[glob.match("*.acme.com", ["."], "api.acme.com"), glob.match("*.acme.com", ["."], "a.b.acme.com"), glob.match("**.acme.com", ["."], "a.b.acme.com")]',
      ),
    ).toEqual([true, false, true]);
  });

  it('should answer a catastrophic-backtracking pattern when the linear regex fallback is on', () => {
    // Without V8's linear fallback this match backtracks for minutes; the deadline cannot stop it.
    expect(
      value(
        'regex.match(`^(a+)+$`, sprintf("%sb", [concat("", [s | some _ in numbers.range(1, 32); s := "a"])]))',
      ),
    ).toBe(false);
  });
});
