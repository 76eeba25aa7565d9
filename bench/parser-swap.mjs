// Given to the built service as `NODE_OPTIONS=--import=bench/parser-swap.mjs` by bench/mission-upload.mjs:
// a module resolve hook that loads bench/formidable-upload.mjs wherever the service imports
// missions/upload.js, so that the service measured is the real one with only its multipart parser changed.
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const REPLACEMENT = new URL('./formidable-upload.mjs', import.meta.url).href;

if (isMainThread) register(import.meta.url);

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.endsWith('/packages/server/dist/missions/upload.js') && context.parentURL !== REPLACEMENT) {
    return { ...resolved, url: REPLACEMENT };
  }
  return resolved;
}
