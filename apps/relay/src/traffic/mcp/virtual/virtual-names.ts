import {
  PREFIX_SEPARATOR,
  VirtualMember,
  exposedName,
  isExposed,
} from '../../../mcp-servers/virtual/virtual-members';
import { ToolGrant } from '../mcp-messages';

/** The list methods a virtual server merges, the key of their items and what filters them. */
export const LISTS = {
  'tools/list': { items: 'tools', filter: 'tools' },
  'prompts/list': { items: 'prompts', filter: 'prompts' },
  'resources/list': { items: 'resources', filter: 'resources' },
  'resources/templates/list': { items: 'resourceTemplates', filter: 'resources' },
} as const;

export type ListMethod = keyof typeof LISTS;
type Item = Record<string, unknown>;

export function isListMethod(method: string): method is ListMethod {
  return method in LISTS;
}

/** D52: the grant of a virtual server (exposed names) as the member's own names. */
export function memberGrant(grant: ToolGrant, prefix: string): string[] | null {
  if (grant === null) {
    return null;
  }
  const start = `${prefix}${PREFIX_SEPARATOR}`;
  return grant.filter((name) => name.startsWith(start)).map((name) => name.slice(start.length));
}

/**
 * D52: a member's items as the virtual server exposes them: only those its filter names, each
 * tool and prompt renamed `{prefix}__{name}`, a resource's name so too (its URI stays, T79).
 */
export function exposedItems(method: ListMethod, member: VirtualMember, items: unknown): Item[] {
  if (!Array.isArray(items)) {
    return [];
  }
  const filter = member[LISTS[method].filter];
  return (items as Item[])
    .filter((item) => isExposed(filter, item.name, item.uri, item.uriTemplate))
    .map((item) =>
      typeof item.name === 'string'
        ? { ...item, name: exposedName(member.prefix, item.name) }
        : item,
    );
}

/** T79: a URI a member lists (or one its template's fixed start covers). */
export function offersUri(items: { resources: Item[]; templates: Item[] }, uri: string): boolean {
  return (
    items.resources.some((r) => r.uri === uri) ||
    items.templates.some((t) => {
      const template = typeof t.uriTemplate === 'string' ? t.uriTemplate : '';
      const fixed = template.split('{')[0];
      return fixed.length > 0 && template.includes('{') && uri.startsWith(fixed);
    })
  );
}
