/** Rego modules (POLICY.md) for the LLM interoperability tests, one behaviour each. */

/** BLOCK a prompt injection in the chat request (D33: 403 on the LLM path). */
export const BLOCK_INJECTION = `package llm.block

import rego.v1

decision := {"action": "BLOCK", "reasons": ["prompt injection"]} if {
	input.direction == "REQUEST"
	regex.match(\`(?i)ignore (all )?previous instructions\`, input.message.text)
}
`;

/** MASK an SSN in what the model answers, whole or streamed (T20: the same paths either way). */
export const MASK_SSN_IN_COMPLETION = `package llm.mask

import rego.v1

ssn := \`\\b\\d{3}-\\d{2}-\\d{4}\\b\`

decision := {
	"action": "MASK",
	"reasons": ["SSN in completion"],
	"mask": [{"path": "choices", "pattern": ssn, "label": "SSN"}],
	"detections": [{"kind": "PII", "label": "SSN", "path": "choices"}],
} if {
	input.direction == "RESPONSE"
	regex.match(ssn, input.message.text)
}
`;

/** Holds every chat request that mentions a wire transfer for a person (D34). */
export const HOLD_TRANSFERS = `package llm.hold

import rego.v1

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["wire transfers need a reviewer"]} if {
	input.direction == "REQUEST"
	contains(lower(input.message.text), "wire transfer")
}
`;

/** Holds every completion that mentions a refund for a person before the agent sees it (D34). */
export const HOLD_REFUND_ANSWERS = `package llm.holdanswers

import rego.v1

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["refund answers need a reviewer"]} if {
	input.direction == "RESPONSE"
	contains(lower(input.message.text), "refund")
}
`;
