import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The gateway serves the build at /console/; `npx vite` in this folder proxies /v1 to a local gateway.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { proxy: { '/v1': 'http://127.0.0.1:3000' } },
});
