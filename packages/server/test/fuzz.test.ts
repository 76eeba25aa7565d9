import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { ADMIN_PASSWORD, createServer, startHarness, withDatabase, type Harness } from './helpers.js';
import { requestArbitrary, type Dictionary, type FuzzRequest, type Identity, type OpenApiDoc } from './fuzz/requests.js';
import { judge, type Secrets } from './fuzz/oracle.js';
import { KEY_SCOPES } from '@garrison/core';

// Seeded: FUZZ_SEED replays a run, FUZZ_RUNS sets its length. Every route of the served OpenAPI document
// is covered, so a route added later is fuzzed without touching this file.
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const runs = Number(process.env.FUZZ_RUNS ?? 3000);

describe('fuzzing every route of the OpenAPI document', () => {
  let h: Harness;
  let doc: OpenApiDoc;
  let dict: Dictionary;
  let secrets: Secrets;
  const tokens = {} as Record<Identity, string | null>;
  let reopenSessions: () => Promise<unknown> = async () => undefined;

  before(async () => {
    h = await startHarness();
    doc = (await h.api('GET', '/openapi.json')).body;
    const viewer = await h.userToken('viewer');
    const doomed = await h.userToken('viewer');
    await h.api('DELETE', `/auth/users/${doomed.id}`, { token: h.adminToken });
    const throwaway = await h.userToken('viewer');
    const servers = [await createServer(h), await createServer(h), await createServer(h, { game_type: 'gamea' })];
    const jwtSecret = (await readFile(join(h.dataDir, 'jwt-secret'), 'utf8')).trim();

    // Sessions of their own, opened again after every request that may have ended them: the fuzzer ends
    // sessions (DELETE /auth/sessions, reached by odd paths too), and must not sign its own identities out
    // for the rest of the run. Every token needs a session, so these are rows like a sign-in's.
    const stamp = new Date().toISOString();
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    await withDatabase(h, (knex) =>
      knex('sessions').insert(
        [
          [1, 'fuzz-admin'],
          [viewer.id, 'fuzz-viewer'],
        ].map(([user_id, id]) => ({
          id,
          user_id,
          created_at: stamp,
          last_seen_at: stamp,
          address: null,
          user_agent: null,
          expires_at: expires,
          ended_at: null,
        })),
      ),
    );
    reopenSessions = () =>
      withDatabase(h, (knex) => knex('sessions').whereIn('id', ['fuzz-admin', 'fuzz-viewer']).update({ ended_at: null }));
    const withSession = (user: { id: number; username: string }, role: string, sid: string) =>
      jwt.sign({ username: user.username, role, gen: 0, sid }, jwtSecret, { subject: String(user.id), expiresIn: 3600 });
    tokens.admin = withSession({ id: 1, username: 'admin' }, 'admin', 'fuzz-admin');
    tokens.viewer = withSession(viewer, 'viewer', 'fuzz-viewer');
    tokens.anonymous = null;
    tokens.forged = jwt.sign({ username: 'admin', role: 'admin' }, 'not-the-secret', { subject: '1', expiresIn: 600 });
    tokens['alg-none'] = jwt.sign({ username: 'admin', role: 'admin', sub: '1' }, '', { algorithm: 'none' });
    tokens.expired = jwt.sign({ username: 'admin', role: 'admin', exp: Math.floor(Date.now() / 1000) - 10 }, jwtSecret, { subject: '1' });
    tokens.garbage = 'garbage.garbage.garbage';
    tokens['deleted-user'] = doomed.token;
    tokens['not-bearer'] = Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64');
    for (const scope of KEY_SCOPES) {
      tokens[`key:${scope}`] = (
        await h.api('POST', '/auth/keys', { token: h.adminToken, body: { name: `fuzz ${scope}`, scopes: [scope] } })
      ).body.data.key;
    }
    const revoked = (await h.api('POST', '/auth/keys', { token: h.adminToken, body: { name: 'fuzz revoked', scopes: [...KEY_SCOPES] } }))
      .body.data;
    await h.api('DELETE', `/auth/keys/${revoked.id}`, { token: h.adminToken });
    tokens['key-revoked'] = revoked.key;

    const games = (await h.api('GET', '/games')).body.data as { game_type: string }[];
    const details = await Promise.all(games.map(async (g) => (await h.api('GET', `/games/${g.game_type}`)).body.data));
    const schemas = await Promise.all(games.map(async (g) => (await h.api('GET', `/games/${g.game_type}/config-schema`)).body.data));
    dict = {
      values: {
        server_id: servers.map((s) => String(s.id)),
        // The admin may delete users: only a throwaway one is offered, so the fuzzer keeps its viewer.
        user_id: [String(throwaway.id), String(doomed.id)],
        game_type: games.map((g) => g.game_type),
        section: [...new Set(details.flatMap((d) => d.config_sections as string[]))],
        filename: ['server.cfg', 'basic.cfg', 'server.GameaProfile', 'BEServer_x64.cfg', 'x.rpt'],
      },
      fieldNames: [
        ...new Set(
          schemas.flatMap((s) =>
            Object.values(s as Record<string, { properties?: object }>).flatMap((sec) => Object.keys(sec.properties ?? {})),
          ),
        ),
      ],
    };
    secrets = {
      never: [
        ADMIN_PASSWORD,
        viewer.password,
        throwaway.password,
        jwtSecret,
        ...Object.entries(tokens)
          .filter(([id]) => id.startsWith('key'))
          .map(([, key]) => key!.replace(/^gar_\d+_/, '')),
      ],
      previewOnly: servers.flatMap((s) => [s.password_admin, s.rcon_password]).filter(Boolean),
    };
  });
  after(() => h.close());

  async function send(request: FuzzRequest) {
    const token = tokens[request.identity];
    const headers = { ...request.headers };
    if (token) headers.authorization = request.identity === 'not-bearer' ? `Basic ${token}` : `Bearer ${token}`;
    const response = await fetch(`${h.url}/api${request.path}`, {
      method: request.method,
      headers,
      body: request.body,
      signal: AbortSignal.timeout(15_000),
    });
    return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') ?? '' };
  }

  it(`holds its rules for ${runs} requests (seed ${seed})`, { timeout: 240_000 }, async () => {
    console.log(`fuzz: seed ${seed}, ${runs} requests; replay with FUZZ_SEED=${seed} node scripts/run-tests.js fuzz`);
    await fc.assert(
      fc.asyncProperty(requestArbitrary(doc, dict), async (request) => {
        let answer;
        try {
          answer = await send(request);
        } catch (err) {
          throw new Error(`no answer (${String((err as Error).cause ?? (err as Error).message)}) to ${describeRequest(request)}`, {
            cause: err,
          });
        }
        if (request.method === 'DELETE') await reopenSessions();
        const broken = judge(doc, request, answer, secrets);
        if (broken)
          throw new Error(`${broken}\n  request: ${describeRequest(request)}\n  answer: ${answer.status} ${answer.text.slice(0, 300)}`);
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );

    assert.equal((await h.api('GET', '/system/health')).status, 200, 'healthy at the end');
    assert.equal((await h.api('GET', '/servers', { token: tokens.admin })).status, 200, 'still serving the admin');
    const me = await h.api('GET', '/auth/me', { token: tokens.viewer });
    assert.equal(me.status, 200, `still serving the viewer: ${JSON.stringify(me.body)}`);
  });
});

function describeRequest(r: FuzzRequest): string {
  const body = r.body ? ` body (${r.bodyKind}, ${r.body.length} bytes): ${Buffer.from(r.body.slice(0, 160)).toString('latin1')}` : '';
  return `${r.method} /api${r.path} as ${r.identity} (route ${r.route}) headers ${JSON.stringify(r.headers)}${body}`;
}
