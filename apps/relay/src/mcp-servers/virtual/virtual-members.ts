/** D52: lower-case letters and digits, single `_` between them, so `__` only ever separates. */
export const PREFIX_PATTERN = /^(?=.{1,64}$)[a-z0-9]+(?:_[a-z0-9]+)*$/;

/** D52: a member's item is exposed as `{prefix}__{name}`. */
export const PREFIX_SEPARATOR = '__';

/** A member as stored: its prefix resolved when the virtual server was written (T76). */
export interface VirtualMember {
  serverId: string;
  prefix: string;
  tools?: string[];
  resources?: string[];
  prompts?: string[];
}

export interface MemberServer {
  id: string;
  name: string;
  transport: string;
  /** MK37: an installed marketplace entry (its publisher's side is reached in-process). */
  installed?: boolean;
}

export interface FieldError {
  field: string;
  message: string;
}

/** D52: the member's name in lower-case letters, digits and `_`. */
export function defaultPrefix(name: string): string {
  const prefix = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64)
    .replace(/_+$/, '');
  return prefix.length > 0 ? prefix : 'member';
}

export function exposedName(prefix: string, name: string): string {
  return `${prefix}${PREFIX_SEPARATOR}${name}`;
}

/** The member an exposed name belongs to, and the member's own name for the item. */
export function memberOfName(
  members: readonly VirtualMember[],
  exposed: string,
): { member: VirtualMember; name: string } | undefined {
  const at = exposed.indexOf(PREFIX_SEPARATOR);
  if (at <= 0) {
    return undefined;
  }
  const prefix = exposed.slice(0, at);
  const member = members.find((m) => m.prefix === prefix);
  const name = exposed.slice(at + PREFIX_SEPARATOR.length);
  return member && name.length > 0 ? { member, name } : undefined;
}

/** D52: absent lists expose everything; a resource matches by its name or its URI. */
export function isExposed(filter: readonly string[] | undefined, ...keys: unknown[]): boolean {
  return (
    filter === undefined || keys.some((key) => typeof key === 'string' && filter.includes(key))
  );
}

/**
 * T76: the members as they will be stored (prefixes resolved), or what is wrong with them: each
 * must be a registered, non-virtual, non-installed server other than the virtual one itself, once, under a prefix
 * no other member has.
 */
export function resolveMembers(
  given: readonly (Omit<VirtualMember, 'prefix'> & { prefix?: string })[],
  servers: readonly MemberServer[],
  selfId?: string,
): { members: VirtualMember[] } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const prefixes = new Set<string>();
  const seen = new Set<string>();
  const members = given.map((member, index) => {
    const field = `members[${index}]`;
    const server = servers.find((s) => s.id === member.serverId);
    if (!server || member.serverId === selfId) {
      errors.push({ field: `${field}.serverId`, message: `no MCP server ${member.serverId}` });
    } else if (server.transport === 'VIRTUAL') {
      errors.push({
        field: `${field}.serverId`,
        message: `${server.name} is itself virtual; a member must be a server the relay calls`,
      });
    } else if (server.installed) {
      // An installed entry may be another tenant's virtual server: two tenants could close a
      // loop (V_A ∋ I_A = V_B ∋ I_B = V_A) that one tools/list would follow forever.
      errors.push({
        field: `${field}.serverId`,
        message: `${server.name} is an installed marketplace server; a member must be the tenant's own`,
      });
    }
    if (seen.has(member.serverId)) {
      errors.push({ field: `${field}.serverId`, message: 'a server is a member once' });
    }
    seen.add(member.serverId);
    const prefix = member.prefix ?? defaultPrefix(server?.name ?? '');
    if (prefixes.has(prefix)) {
      errors.push({
        field: `${field}.prefix`,
        message: `prefix ${prefix} is another member's; give this member its own`,
      });
    }
    prefixes.add(prefix);
    return { ...withoutUndefined(member), prefix };
  });
  return errors.length > 0 ? { errors } : { members };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
