import { defineConfig } from 'tsup';

// ESM and CommonJS with their types; the A2A server helper and the framework wrappers are entries
// of their own, so the core never loads express, `ai` or `@openai/agents` (optional peers).
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    server: 'src/server/index.ts',
    'vercel-ai': 'src/vercel-ai/index.ts',
    'openai-agents': 'src/openai-agents/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
});
