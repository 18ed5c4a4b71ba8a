/**
 * What an application's handlers answer, as JSON Schemas generated from their TypeScript return
 * types (F24, `generateResponseSchemas`): by operation id (`AlertsController_get`), with the named
 * types they reference under `schemas` (to join the document's `components.schemas`).
 */
export interface ResponseSchemas {
  operations: Record<string, object>;
  schemas: Record<string, object>;
}
