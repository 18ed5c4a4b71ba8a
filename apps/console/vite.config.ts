import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev -w @agp/console` serves on 5173 and sends the API to `npm start`'s platform
// (tenant-auth must list http://localhost:5173 in CONSOLE_ORIGINS, identity.md I14).
const platform = process.env.AGP_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 600 },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/tenant-auth', '/relay', '/audit'].map((prefix) => [prefix, platform]),
    ),
  },
});
