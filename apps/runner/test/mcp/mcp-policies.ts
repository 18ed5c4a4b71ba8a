/** Rego modules (POLICY.md) for the MCP interoperability tests, one behaviour each. */

export const LOG_POLICY = `package mcp.log

import rego.v1

decision := {"action": "LOG", "reasons": ["seen"]}
`;

/** WARN on tools/call both ways (D33: the warning goes under the message's _meta). */
export const WARN_POLICY = `package mcp.warn

import rego.v1

decision := {"action": "WARN", "reasons": ["tool use is watched"]} if input.method == "tools/call"
`;

/** Masks an SSN anywhere in the message, both ways: the server sees and the agent gets it masked. */
export const MASK_POLICY = `package mcp.mask

import rego.v1

ssn := \`\\b\\d{3}-\\d{2}-\\d{4}\\b\`

decision := {
	"action": "MASK",
	"reasons": ["SSN in message"],
	"mask": [{"path": "", "pattern": ssn, "label": "SSN"}],
	"detections": [{"kind": "REGEX", "label": "SSN", "path": ""}],
} if regex.match(ssn, input.message.text)
`;

/** BLOCK a prompt injection on the way in, and a cloud access key on the way out. */
export const BLOCK_POLICY = `package mcp.block

import rego.v1

decision := {"action": "BLOCK", "reasons": ["prompt injection"]} if {
	input.direction == "REQUEST"
	regex.match(\`(?i)ignore (all )?previous instructions\`, input.message.text)
}

decision := {"action": "BLOCK", "reasons": ["AWS access key in message"]} if {
	input.direction == "RESPONSE"
	regex.match(\`AKIA[0-9A-Z]{16}\`, input.message.text)
}
`;

/** Fails to evaluate on tools/call (two values for one complete rule): ERROR, fail closed (D22). */
export const FAILING_POLICY = `package mcp.broken

import rego.v1

decision := {"action": "LOG"} if input.method
decision := {"action": "BLOCK"} if input.tool
`;

/** Holds every call of lookup_customer for a person (D34); other tools pass. */
export const HOLD_POLICY = `package mcp.hold

import rego.v1

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["customer data needs a reviewer"]} if {
	input.direction == "REQUEST"
	input.tool.name == "lookup_customer"
}
`;
