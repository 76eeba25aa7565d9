import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { CONSOLE_ROOT, consoleBuilt } from '../src/web-console/serve.js';
import { startHarness, type Harness } from './helpers.js';
import { rawRequest } from './raw-http.js';

describe('the web console, as files the service serves', () => {
  let h: Harness;
  before(async () => {
    assert.ok(consoleBuilt(), `the console is built into ${CONSOLE_ROOT} (npm run build)`);
    h = await startHarness();
  });
  after(() => h.close());

  it('serves the page at /, never cached, with a content security policy', async () => {
    for (const path of ['/', '/index.html']) {
      const res = await fetch(`${h.url}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type')!, /^text\/html/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      assert.match(res.headers.get('content-security-policy')!, /default-src 'self'.*frame-ancestors 'none'/);
      assert.match(await res.text(), /<div id="app">/);
    }
  });

  it('serves its hashed files for good', async () => {
    const script = readdirSync(`${CONSOLE_ROOT}/assets`).find((name) => name.endsWith('.js'))!;
    const res = await fetch(`${h.url}/assets/${script}`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /javascript/);
    assert.match(res.headers.get('cache-control')!, /max-age=31536000.*immutable/);
  });

  it('leaves the API, unknown files and other methods to the envelope, and nothing outside its folder', async () => {
    for (const [method, path] of [
      ['GET', '/api/nothing'],
      ['GET', '/servers/3'],
      ['GET', '/favicon.ico'],
      ['GET', '/assets/nothing.js'],
      ['POST', '/'],
      ['GET', '/assets/..%2f..%2fpackage.json'],
      ['GET', '/../package.json'],
    ] as const) {
      const res = await rawRequest(h.url, `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(JSON.parse(res.body).error.code, 'NOT_FOUND', `${method} ${path}`);
    }
  });
});
