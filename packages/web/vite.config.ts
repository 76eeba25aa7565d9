import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * The SDK reads its routes from core's endpoint table, so the console's first load carries that table; the
 * endpoints' prose (`summary`, `notes`) is for the OpenAPI document and the docs, which read it from core
 * itself. Each is emptied in the console's chunks (a string literal only: those keys appear nowhere else
 * in the console's code).
 */
const withoutEndpointProse = (): Plugin => ({
  name: 'garrison-without-endpoint-prose',
  // On the chunks as they are written (minified: each prose a single literal).
  generateBundle(_options, bundle) {
    const prose = /\b(summary|notes):("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$]|\\.)*`)/g;
    for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk') chunk.code = chunk.code.replace(prose, '$1:""');
  },
});

// The console ships inside the server package, which serves it at `/`.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [withoutEndpointProse()],
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
