import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import { send } from '@koa/send';

/** Where the build of `packages/web` lands, inside this package, so that the packed server carries it. */
export const CONSOLE_ROOT = fileURLToPath(new URL('../../console', import.meta.url));

const YEAR_MS = 365 * 24 * 3600 * 1000;
// The console talks only to this service; nothing may frame it.
const POLICY =
  "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; " +
  "base-uri 'none'; form-action 'self'";

/** Whether the console was built, for a warning at start when it was not. */
export const consoleBuilt = (root = CONSOLE_ROOT) => existsSync(`${root}/index.html`);

/**
 * The web console: its page at `/` (its own pages are in the address's fragment, `/#/servers/3`), and its
 * files. `/api` and `/ws` are never touched; a missing file goes on to the 404 envelope. The built
 * files' names carry their content's hash, so they are cached for good; the page never is.
 */
export function webConsole(root = CONSOLE_ROOT): Middleware {
  const built = consoleBuilt(root);
  return async (ctx, next) => {
    if (!built || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || /^\/(?:api|ws)(?:\/|$)/.test(ctx.path)) {
      await next();
      return;
    }
    const asset = ctx.path.startsWith('/assets/');
    const page = ctx.path === '/';
    try {
      await send(ctx, page ? '/index.html' : ctx.path, {
        root,
        immutable: asset,
        maxage: asset ? YEAR_MS : 0,
        gzip: false,
        brotli: false,
        setHeaders: (res) => {
          res.setHeader('Content-Security-Policy', POLICY);
          res.setHeader('X-Content-Type-Options', 'nosniff');
          if (!asset) res.setHeader('Cache-Control', 'no-cache');
        },
      });
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status === 404 || status === 400 || status === 403) {
        await next();
        return;
      }
      throw err;
    }
  };
}
