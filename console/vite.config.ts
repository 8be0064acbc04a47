import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** `npm run dev -w console` proxies the API to a running stack (BUNTING_URL, default http://localhost:4242). */
const api = process.env.BUNTING_URL ?? 'http://localhost:4242';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    // Hashed file names: admin-api serves them as immutable.
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: Object.fromEntries(
      ['/api', '/auth', '/logout', '/invite', '/health', '/ready'].map((path) => [
        path,
        { target: api, changeOrigin: false },
      ]),
    ),
  },
});
