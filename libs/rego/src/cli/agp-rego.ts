import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { RegoCompileError } from '../errors';
import { parseJsonText } from '../values/json-text';
import { formatCompileErrors, formatTestReport, runPolicyTests } from '../testing/test-runner';

const USAGE = `usage: agp-rego test [-v] [-S|--strict] [-s|--schema PATH] [--run REGEX] <path>...

Runs the test_ rules of every .rego file under the paths (as \`opa test\`). Files named data.json,
data.yaml or data.yml are loaded as base documents under their directory's path.
--strict compiles in OPA's strict mode (unused assignments, arguments and imports are errors).
--schema types input with the JSON schema in a file, or gives the schemas of a directory to
\`# METADATA\` schemas annotations (dir/input.json is schema.input, dir/k8s/pod.json schema.k8s.pod).
Exit status: 0 all tests pass, 2 a test fails or errors, 1 the modules do not compile.`;

interface Loaded {
  modules: { file: string; source: string }[];
  data: Record<string, unknown>;
}

function load(roots: string[]): Loaded {
  const out: Loaded = { modules: [], data: {} };
  const visit = (root: string, p: string): void => {
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) {
        if (!name.startsWith('.') && name !== 'node_modules') {
          visit(root, path.join(p, name));
        }
      }
      return;
    }
    const base = path.basename(p);
    if (p.endsWith('.rego')) {
      const rel = path.relative(process.cwd(), p);
      out.modules.push({
        file: rel.startsWith('..') ? p : rel,
        source: fs.readFileSync(p, 'utf8'),
      });
    } else if (/^data\.(json|ya?ml)$/.test(base)) {
      const text = fs.readFileSync(p, 'utf8');
      // OPA decodes JSON data with json.Number (texts kept); YAML goes through float64 (E9).
      const doc: unknown = base.endsWith('.json') ? parseJsonText(text) : parseYaml(text);
      const dir = path.relative(
        fs.statSync(root).isDirectory() ? root : path.dirname(root),
        path.dirname(p),
      );
      mergeAt(out.data, dir ? dir.split(path.sep) : [], doc);
    }
  };
  roots.forEach((r) => visit(r, r));
  return out;
}

function mergeAt(target: Record<string, unknown>, at: string[], doc: unknown): void {
  let node = target;
  for (const key of at) {
    const next = node[key];
    node = (next && typeof next === 'object' ? next : (node[key] = {})) as Record<string, unknown>;
  }
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    Object.assign(node, doc);
  }
}

/** OPA's `loader.Schemas`: one file types `input`, a directory names each file by its path. */
function loadSchemas(p: string): Record<string, unknown> {
  const read = (file: string): unknown => parseYaml(fs.readFileSync(file, 'utf8')) as unknown;
  if (!fs.statSync(p).isDirectory()) {
    return { schema: read(p) };
  }
  const out: Record<string, unknown> = {};
  const visit = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (fs.statSync(full).isDirectory()) {
        visit(full);
      } else {
        const rel = path.relative(p, full).split(path.sep).join('/');
        out[rel.slice(0, rel.length - path.extname(rel).length)] = read(full);
      }
    }
  };
  visit(p);
  return out;
}

function main(argv: string[]): number {
  const [command, ...rest] = argv;
  if (command !== 'test') {
    process.stderr.write(USAGE + '\n');
    return command === '-h' || command === '--help' ? 0 : 1;
  }
  let verbose = false;
  let run: RegExp | undefined;
  let strict = false;
  let schemas: Record<string, unknown> | undefined;
  const paths: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '-v' || a === '--verbose') {
      verbose = true;
    } else if (a === '-S' || a === '--strict') {
      strict = true;
    } else if (a === '--schema' || a === '-s') {
      schemas = loadSchemas(rest[++i] ?? '');
    } else if (a === '--run' || a === '-r') {
      run = new RegExp(rest[++i] ?? '');
    } else {
      paths.push(a);
    }
  }
  if (paths.length === 0) {
    process.stderr.write(USAGE + '\n');
    return 1;
  }
  const { modules, data } = load(paths);
  try {
    const results = runPolicyTests(modules, {
      data,
      run,
      strict,
      schemas,
      print: (line) => process.stdout.write(line + '\n'),
    });
    process.stdout.write(formatTestReport(results, verbose) + '\n');
    return results.some((r) => r.status === 'FAIL' || r.status === 'ERROR') ? 2 : 0;
  } catch (e) {
    if (e instanceof RegoCompileError) {
      process.stderr.write(formatCompileErrors(e) + '\n');
      return 1;
    }
    throw e;
  }
}

process.exitCode = main(process.argv.slice(2));
