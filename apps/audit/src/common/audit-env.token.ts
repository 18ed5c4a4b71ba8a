/** The validated AuditEnv of this module instance (D3: config injected, never read from process.env). */
export const AUDIT_ENV = Symbol.for('agp:audit:env');
