import { Term } from '../ast/ast';
import { DocNode } from './types';

/** Rules a `data` ref can reach. */
export function refDeps(node: DocNode, path: Term[], i: number, out: Set<string>): void {
  if (i === path.length || node.rules.length > 0 || node.defaultRule) {
    addSubtree(node, out);
    return;
  }
  const t = path[i];
  if (t.type === 'scalar') {
    const c = typeof t.value === 'string' ? node.children.get(t.value) : undefined;
    if (c) {
      refDeps(c, path, i + 1, out);
    }
    return;
  }
  node.children.forEach((c) => refDeps(c, path, i + 1, out));
}

function addSubtree(node: DocNode, out: Set<string>): void {
  if (!node.hasRules && !node.hasFuncs) {
    return;
  }
  if (node.rules.length > 0 || node.funcs.length > 0 || node.defaultRule) {
    out.add(['data', ...node.path].join('.'));
  }
  node.children.forEach((c) => addSubtree(c, out));
}
