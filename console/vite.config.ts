import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The single-node server serves dist/ on the same origin; in `vite` dev mode the API and /ws are proxied to it.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:5000',
      '/ws': { target: 'ws://localhost:5000', ws: true },
    },
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 700 },
});
