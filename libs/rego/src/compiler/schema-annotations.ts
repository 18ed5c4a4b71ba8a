import { Term } from '../ast/ast';
import { RegoCompileError } from '../errors';
import { tokenize } from '../lexer/lexer';
import { Cursor } from '../parser/cursor';
import { parseTerm } from '../parser/terms';

// The `schemas` of OPA's METADATA annotations as its metadata parser reads them (v1/ast/parser.go,
// `metadataParser.Parse`): each entry maps a document reference to a reference into the schema set
// or to a schema written inline.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A `schemas` entry of an annotation (OPA's `SchemaAnnotation`). */
export interface SchemaAnnotation {
  path: Term[];
  schema?: Term[];
  definition?: unknown;
}

/** A reference written in an annotation (OPA's `ParseRef`), or undefined when it is not one. */
function parseRef(text: string): Term[] | undefined {
  try {
    const c = new Cursor(tokenize(text, 'annotation'), 'annotation');
    const t = parseTerm(c);
    if (c.peek().kind !== 'eof') {
      return undefined;
    }
    return t.type === 'ref' ? t.terms : t.type === 'var' ? [t] : undefined;
  } catch (e) {
    if (e instanceof RegoCompileError) {
      return undefined;
    }
    throw e;
  }
}

/** OPA's `parseSchemaRef`: `schema` or a reference below it. */
export function parseSchemaRef(text: string): Term[] | undefined {
  const ref = parseRef(text);
  const head = ref?.[0];
  return head?.type === 'var' && head.name === 'schema' ? ref : undefined;
}

/** The `schemas` of an annotation as OPA's metadata parser reads them, or OPA's error text. */
export function parseSchemas(doc: { [k: string]: Json }): SchemaAnnotation[] | string {
  const raw = doc.schemas;
  if (raw === undefined || raw === null) {
    return [];
  }
  if (!Array.isArray(raw)) {
    return 'yaml: unmarshal errors: schemas must be a list';
  }
  const out: SchemaAnnotation[] = [];
  for (const pair of raw) {
    const [k, v] =
      pair !== null && typeof pair === 'object' && !Array.isArray(pair)
        ? (Object.entries(pair)[0] ?? ['', null])
        : ['', null];
    const path = parseRef(k);
    if (!path) {
      return 'invalid document reference';
    }
    if (typeof v === 'string') {
      const schema = parseSchemaRef(v);
      if (!schema) {
        return 'invalid schema reference';
      }
      out.push({ path, schema });
    } else if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out.push({ path, definition: v });
    } else {
      return `invalid schema declaration for path ${JSON.stringify(k)}`;
    }
  }
  return out;
}

/** OPA's `Ref.toArray`: a reference as the strings `rego.metadata` shows. */
export function refStrings(ref: Term[]): Json[] {
  return ref.map((t) =>
    t.type === 'scalar' && typeof t.value === 'string' ? t.value : refTermText(t),
  );
}

function refTermText(t: Term): string {
  if (t.type === 'var') {
    return t.name;
  }
  return t.type === 'scalar' ? JSON.stringify(t.value) : '?';
}
