/**
 * Five guardrails of the kind a tenant binds to all of its traffic (POLICY.md), each read on every
 * hop both ways; none fires on the benchmark's call, so each evaluates its rules to the end.
 */
export const BENCH_POLICIES: string[] = [
  `package bench.injection
import rego.v1
decision := {"action": "BLOCK", "reasons": ["prompt injection"]} if {
	regex.match(\`(?i)ignore (all )?previous instructions|disregard the system prompt\`, input.message.text)
}`,
  `package bench.ssn
import rego.v1
ssn := \`\\b\\d{3}-\\d{2}-\\d{4}\\b\`
decision := {"action": "MASK", "mask": [{"path": "", "pattern": ssn, "label": "SSN"}]} if {
	regex.match(ssn, input.message.text)
}`,
  `package bench.secrets
import rego.v1
decision := {"action": "BLOCK", "reasons": ["cloud key"]} if {
	input.direction == "RESPONSE"
	regex.match(\`AKIA[0-9A-Z]{16}|-----BEGIN [A-Z ]*PRIVATE KEY-----\`, input.message.text)
}`,
  `package bench.tools
import rego.v1
risky := {"delete_customer", "wire_transfer", "drop_table"}
decision := {"action": "WARN", "reasons": [sprintf("risky tool %s", [input.tool.name])]} if {
	input.tool.name in risky
}`,
  `package bench.risk
import rego.v1
decision := {"action": "BLOCK", "reasons": ["high-risk agent after hours"]} if {
	input.source.riskTier == "HIGH"
	[hour, _, _] := time.clock(time.parse_rfc3339_ns(input.time))
	hour < 6
}`,
];
