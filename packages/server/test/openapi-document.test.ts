import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { endpoints, ErrorCodes, type EndpointDef } from '@garrison/core';
import { startHarness, type Harness } from './helpers.js';

const run = promisify(execFile);
const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

// The document is read by tools this project did not write: a validator, and a type generator whose
// output must compile and name what the routes answer.
describe('the OpenAPI document, read by third-party tools', () => {
  let h: Harness;
  let doc: any;
  before(async () => {
    h = await startHarness();
    doc = await (await fetch(`${h.url}/api/openapi.json`)).json();
  });
  after(() => h.close());

  it('is valid OpenAPI 3.1 to @apidevtools/swagger-parser, every reference resolving', async () => {
    const validated = await SwaggerParser.validate(structuredClone(doc));
    assert.equal(Object.keys(validated.paths ?? {}).length, Object.keys(doc.paths).length);
  });

  it('lists, for every route, each error code it can answer under its status, in both failure forms', () => {
    for (const e of Object.values(endpoints) as EndpointDef[]) {
      const op = doc.paths[e.path][e.method.toLowerCase()];
      const codesAt = (status: number): string[] => {
        const ref: string | undefined = op.responses[String(status)]?.content?.['application/json']?.schema?.$ref;
        assert.ok(ref, `${e.operationId} documents ${status}`);
        const failure = doc.components.schemas[ref.split('/').pop()!];
        assert.equal(failure.oneOf.length, 2, 'the envelope form and the detail form');
        return failure.oneOf[0].allOf[1].properties.error.allOf[1].properties.code.enum;
      };
      for (const code of e.errors ?? []) assert.ok(codesAt(ErrorCodes[code]).includes(code), `${e.operationId} names ${code}`);
      if (e.params || e.query || e.body) assert.ok(codesAt(400).includes('VALIDATION_ERROR'), `${e.operationId} names VALIDATION_ERROR`);
      if (e.access !== 'public') assert.ok(codesAt(401).includes('UNAUTHORIZED'));
      if (e.access === 'admin') assert.ok(codesAt(403).includes('FORBIDDEN'));
      assert.ok(codesAt(429).includes('RATE_LIMITED'));
      assert.deepEqual(op.security, e.access === 'public' ? [] : [{ bearer: [] }], `${e.operationId}: its security`);
      assert.ok(typeof op.description === 'string' && op.description.startsWith(`${e.summary}.`), `${e.operationId} has a description`);
      assert.match(op.description, e.access === 'admin' ? /Admins only/ : e.access === 'any' ? /Any signed-in user/ : /No token needed/);
      for (const [status, response] of Object.entries<{ description: string }>(op.responses)) {
        assert.notEqual(response.description, 'Failure', `${e.operationId} ${status} says which codes`);
      }
    }
  });

  it('generates TypeScript types with openapi-typescript that compile and type the answers', { timeout: 120_000 }, async () => {
    const types = astToString(await openapiTS(structuredClone(doc)));
    const dir = await mkdtemp(join(tmpdir(), 'garrison-openapi-'));
    try {
      await writeFile(join(dir, 'api.d.ts'), types);
      // A program written against the generated types: it must compile, and a misspelt field must not.
      await writeFile(
        join(dir, 'use.ts'),
        `import type { paths, components } from './api.js';
type Server = paths['/servers/{server_id}']['get']['responses']['200']['content']['application/json'];
export const port = (s: Server): number => s.data.game_port;
export const status = (s: Server): 'starting' | 'running' | 'stopping' | 'stopped' | 'crashed' | 'error' | 'unknown' => s.data.status;
type Created = paths['/servers']['post']['responses']['201']['content']['application/json'];
export const rcon = (c: Created): number => c.data.rcon_port;
type Failure = components['schemas']['FailureEnvelope'];
export const code = (f: Failure): string => f.error.code;
// @ts-expect-error no such field
export const wrong = (s: Server) => s.data.game_prot;
`,
      );
      await run(
        process.execPath,
        [
          TSC,
          '--strict',
          '--noEmit',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--target',
          'es2022',
          '--skipLibCheck',
          join(dir, 'use.ts'),
        ],
        {
          cwd: dir,
          timeout: 100_000,
        },
      ).catch((err: { stdout?: string; stderr?: string; message?: string }) =>
        assert.fail(`the generated types do not compile:\n${err.stdout || err.stderr || err.message}`),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
