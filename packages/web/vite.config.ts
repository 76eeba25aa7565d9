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
      output: {
        // The chunk every page shares (Preact, the SDK, core's schemas) is named so, rather than after one
        // module in it, and a library loaded alone after the library; `scripts/console-weight.mjs` lists them.
        chunkFileNames: (chunk) => {
          const library = chunk.facadeModuleId && /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(chunk.facadeModuleId);
          if (library) return `assets/${library[1].replace('/', '-')}-[hash].js`;
          if (!chunk.facadeModuleId && chunk.moduleIds.some((id) => id.includes('/preact/'))) return 'assets/shared-[hash].js';
          return 'assets/[name]-[hash].js';
        },
      },
    },
  },
});
