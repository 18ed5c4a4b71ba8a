/** Handlers' answers by operation id, generated from their return types (F24). */
export interface ResponseSchemas {
  operations: Record<string, object>;
  schemas: Record<string, object>;
}
