/** Benchmark scenarios: a policy, its data and input, and a hand-written equivalent. */
export interface Scenario {
  name: string;
  modules: Record<string, string>;
  data: unknown;
  inputs: unknown[];
  ref: string;
  handWritten: (input: unknown, data: unknown) => unknown;
}

const MINIMAL = `package acme.guardrails

import rego.v1

ssn := \`\\b\\d{3}-\\d{2}-\\d{4}\\b\`

decision := {"action": "BLOCK", "reasons": ["prompt injection"]} if {
	regex.match(\`(?i)ignore (all )?previous instructions\`, input.message.text)
} else := {"action": "MASK", "mask": [{"path": "params.arguments.note", "pattern": ssn, "label": "SSN"}]} if {
	regex.match(ssn, input.message.text)
} else := {"action": "LOG"}
`;

/** A POLICY.md input of about 4 KB. */
function messageInput(i: number): Record<string, unknown> {
  const lines = Array.from(
    { length: 40 },
    (_, k) => `line ${k} of the customer conversation about order ${i * 100 + k}`,
  );
  const text = lines.join('\n') + (i % 3 === 0 ? '\nssn 123-45-6789' : '');
  return {
    tenant: { id: '6f1c2c1e-0000-4000-8000-000000000001', slug: 'acme' },
    protocol: 'MCP',
    direction: 'REQUEST',
    source: {
      type: 'AGENT',
      id: '6f1c2c1e-0000-4000-8000-000000000002',
      name: 'billing-agent',
      riskTier: 'HIGH',
    },
    sink: { type: 'MCP_SERVER', id: '6f1c2c1e-0000-4000-8000-000000000003', name: 'crm-tools' },
    method: 'tools/call',
    tool: { name: 'lookup_customer' },
    message: {
      text,
      json: {
        params: {
          name: 'lookup_customer',
          arguments: { note: text.slice(0, 1200), lines: lines.slice(0, 10) },
        },
      },
    },
    user: { id: '6f1c2c1e-0000-4000-8000-000000000004', email: 'a@acme.example' },
    correlationId: '6f1c2c1e-0000-4000-8000-000000000005',
    time: '2026-11-22T10:00:00Z',
  };
}

const INJECTION = /(?:ignore (all )?previous instructions)/i;
const SSN = /\b\d{3}-\d{2}-\d{4}\b/;

function minimalTs(input: unknown): unknown {
  const text = (input as { message: { text: string } }).message.text;
  if (INJECTION.test(text)) {
    return { action: 'BLOCK', reasons: ['prompt injection'] };
  }
  if (SSN.test(text)) {
    return {
      action: 'MASK',
      mask: [{ path: 'params.arguments.note', pattern: SSN.source, label: 'SSN' }],
    };
  }
  return { action: 'LOG' };
}

const RBAC = `package rbac

import rego.v1

default allow := false

allow if {
	some role in data.rbac.bindings[input.user]
	some p in data.rbac.roles[role].permissions
	p.action == input.action
	p.resource == input.resource
}
`;

interface RbacData {
  rbac: {
    roles: Record<string, { permissions: { action: string; resource: string }[] }>;
    bindings: Record<string, string[]>;
  };
}

function rbacData(): RbacData {
  const roles: RbacData['rbac']['roles'] = {};
  for (let r = 0; r < 100; r++) {
    roles[`role-${r}`] = {
      permissions: Array.from({ length: 5 }, (_, k) => ({
        action: k % 2 ? 'read' : 'write',
        resource: `res-${(r * 7 + k) % 300}`,
      })),
    };
  }
  const bindings: Record<string, string[]> = {};
  for (let u = 0; u < 1000; u++) {
    bindings[`user-${u}`] = [`role-${u % 100}`, `role-${(u * 13) % 100}`];
  }
  return { rbac: { roles, bindings } };
}

function rbacTs(input: unknown, data: unknown): unknown {
  const i = input as { user: string; action: string; resource: string };
  const d = (data as RbacData).rbac;
  for (const role of d.bindings[i.user] ?? []) {
    for (const p of d.roles[role]?.permissions ?? []) {
      if (p.action === i.action && p.resource === i.resource) {
        return true;
      }
    }
  }
  return false;
}

function fiftyRules(): string {
  const rules: string[] = ['package checks', '', 'import rego.v1', ''];
  for (let i = 0; i < 50; i++) {
    const kind = i % 5;
    if (kind === 0) {
      rules.push(`deny contains "r${i}: tool" if input.tool.name == "tool-${i}"`);
    } else if (kind === 1) {
      rules.push(
        `deny contains "r${i}: sink" if { input.sink.name == "sink-${i}"; input.direction == "REQUEST" }`,
      );
    } else if (kind === 2) {
      rules.push(`deny contains "r${i}: prefix" if startswith(input.method, "admin/${i}")`);
    } else if (kind === 3) {
      rules.push(
        `deny contains "r${i}: tier" if { input.source.riskTier == "CRITICAL"; input.tool.name == "t${i}" }`,
      );
    } else {
      rules.push(`deny contains "r${i}: word" if contains(input.message.text, "forbidden-${i}")`);
    }
    rules.push('');
  }
  return rules.join('\n');
}

function fiftyTs(input: unknown): unknown {
  const i = input as {
    tool: { name: string };
    sink: { name: string };
    direction: string;
    method: string;
    source: { riskTier: string };
    message: { text: string };
  };
  const out: string[] = [];
  for (let k = 0; k < 50; k++) {
    const kind = k % 5;
    const hit =
      kind === 0
        ? i.tool.name === `tool-${k}`
        : kind === 1
          ? i.sink.name === `sink-${k}` && i.direction === 'REQUEST'
          : kind === 2
            ? i.method.startsWith(`admin/${k}`)
            : kind === 3
              ? i.source.riskTier === 'CRITICAL' && i.tool.name === `t${k}`
              : i.message.text.includes(`forbidden-${k}`);
    if (hit) {
      out.push(`r${k}: ${['tool', 'sink', 'prefix', 'tier', 'word'][kind]}`);
    }
  }
  return out.sort();
}

function smallInput(i: number): Record<string, unknown> {
  return {
    tool: { name: i % 10 === 0 ? 'tool-10' : 'lookup' },
    sink: { name: i % 7 === 0 ? 'sink-11' : 'crm' },
    direction: 'REQUEST',
    method: 'tools/call',
    source: { riskTier: 'HIGH' },
    message: { text: i % 4 === 0 ? 'this has forbidden-14 inside' : 'hello there' },
  };
}

export function scenarios(): Scenario[] {
  const data = rbacData();
  return [
    {
      name: '(a) POLICY.md minimal policy, 4 KB input',
      modules: { 'minimal.rego': MINIMAL },
      data: {},
      inputs: Array.from({ length: 16 }, (_, i) => messageInput(i)),
      ref: 'data.acme.guardrails.decision',
      handWritten: minimalTs,
    },
    {
      name: '(b) RBAC, 100 roles, 1,000 bindings in data',
      modules: { 'rbac.rego': RBAC },
      data,
      inputs: Array.from({ length: 64 }, (_, i) => ({
        user: `user-${(i * 37) % 1000}`,
        action: i % 2 ? 'read' : 'write',
        resource: `res-${(i * 11) % 300}`,
      })),
      ref: 'data.rbac.allow',
      handWritten: rbacTs,
    },
    {
      name: '(c) 50-rule policy (partial set deny)',
      modules: { 'checks.rego': fiftyRules() },
      data: {},
      inputs: Array.from({ length: 32 }, (_, i) => smallInput(i)),
      ref: 'data.checks.deny',
      handWritten: fiftyTs,
    },
  ];
}
