// D31's `Created` moved to @agp/http, which the audit service shares (issue 17).
export { Created } from '@agp/http';
