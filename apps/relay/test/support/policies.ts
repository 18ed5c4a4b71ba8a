/** POLICY.md-style policies used by the service tests, the evaluation pack and the benchmark. */
export const GUARDRAILS = `package acme.guardrails

import rego.v1

ssn := \`\\b\\d{3}-\\d{2}-\\d{4}\\b\`

decision := {"action": "BLOCK", "reasons": ["prompt injection"]} if {
	regex.match(\`(?i)ignore (all )?previous instructions\`, input.message.text)
} else := {"action": "MASK", "reasons": ["SSN in message"], "mask": [{"path": "params.arguments.note", "pattern": ssn, "label": "SSN"}], "detections": [{"kind": "REGEX", "label": "SSN", "path": "params.arguments.note"}]} if {
	regex.match(ssn, input.message.text)
} else := {"action": "LOG"}
`;

export const ALWAYS = (action: string, pkg = 'acme.always'): string => `package ${pkg}

import rego.v1

decision := {"action": "${action}", "reasons": ["always ${action}"]}
`;
