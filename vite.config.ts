import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  publicDir: 'public',
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // Never inline assets as data: URLs into JS; the CSP and caching both prefer real files.
    assetsInlineLimit: 0,
  },
  server: {
    port: 5173,
    // In development the API runs on its own port; the browser sees one origin, as in production.
    proxy: { '/api': 'http://localhost:3000' },
  },
});
