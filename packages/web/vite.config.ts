import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console ships inside the server package, which serves it at `/`.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  resolve: { conditions: ['@garrison/source', 'browser', 'module', 'import', 'default'] },
  build: {
    outDir: fileURLToPath(new URL('../server/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: true,
    rollupOptions: {
      // The SDK loads these only under Node: a browser has fetch, WebSocket and Blob.
      external: ['node:fs', 'ws'],
    },
  },
});
