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

export const SECRETS = `package acme.secrets

import rego.v1

decision := {"action": "BLOCK", "reasons": ["AWS access key in message"], "detections": [{"kind": "SECRET", "label": "AWS_ACCESS_KEY"}]} if {
	regex.match(\`AKIA[0-9A-Z]{16}\`, input.message.text)
}
`;

export const PII = `package acme.pii

import rego.v1

email := \`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}\`

decision := {"action": "MASK", "reasons": ["e-mail address"], "mask": [{"path": "", "pattern": email, "label": "EMAIL"}], "detections": [{"kind": "PII", "label": "EMAIL"}]} if {
	regex.match(email, input.message.text)
}
`;

/** Data-driven: the banned words are the group's data (POLICY.md). */
export const WORDS = `package acme.words

import rego.v1

hits contains w if {
	some w in data.acme.words.banned
	contains(lower(input.message.text), w)
}

decision := {"action": "WARN", "reasons": [sprintf("mentions %s", [w]) | some w in hits]} if count(hits) > 0
`;

export const REVIEW = `package acme.review

import rego.v1

destructive := {"delete_customer", "drop_table"}

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": [sprintf("%s wants to %s", [input.source.name, input.tool.name])]} if {
	input.tool.name in destructive
}
`;
