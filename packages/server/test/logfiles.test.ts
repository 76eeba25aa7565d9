import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { symlink, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '@garrison/testkit';
import { expectError } from './helpers.js';
import { rawRequest } from './raw-http.js';
import { gameService, FAST_SUPERVISION, createGameServer, killGames, runningGameServer } from './games.js';

describe('log files and config downloads', () => {
  const suite = gameService(FAST_SUPERVISION);

  const raw = (path: string, token = suite.h.viewerToken) =>
    fetch(`${suite.h.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  /** The server's log folder: `<exe dir>/server`, or its own beside it when it was not alone on the installation. */
  const logDir = (s: { id: number; installation_shared_with?: unknown[] }) =>
    join(suite.fake.dir, s.installation_shared_with?.length ? `server_${s.id}` : 'server');

  it('lists the .rpt files, streams one as text, and refuses to delete the one the running game writes', async () => {
    const s = await runningGameServer(suite.h, suite.fake);
    try {
      const files = await waitFor(
        async () => {
          const list = (await suite.h.api('GET', `/servers/${s.id}/logfiles`, { token: suite.h.viewerToken })).body.data as {
            filename: string;
            size_bytes: number;
            modified_at: string;
          }[];
          return list.length > 0 && list;
        },
        { what: 'a log file' },
      );
      const current = files.at(-1)!;
      assert.match(current.filename, /^gameaserver_x64_.*\.rpt$/);
      assert.ok(current.size_bytes > 0);
      assert.ok(Date.parse(current.modified_at));

      const download = await raw(`/servers/${s.id}/logfiles/${current.filename}/download`);
      assert.equal(download.status, 200);
      assert.match(download.headers.get('content-type')!, /^text\/plain/);
      assert.match(await download.text(), /Dedicated host created\./);

      expectError(
        await suite.h.api('DELETE', `/servers/${s.id}/logfiles/${current.filename}`, { token: suite.h.viewerToken }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await suite.h.api('DELETE', `/servers/${s.id}/logfiles/${current.filename}`, { token: suite.h.adminToken }),
        409,
        'CONFLICT',
      );
      await suite.h.api('POST', `/servers/${s.id}/stop`, { token: suite.h.adminToken });
      const deleted = await suite.h.api('DELETE', `/servers/${s.id}/logfiles/${current.filename}`, { token: suite.h.adminToken });
      assert.equal(deleted.status, 200);
      assert.equal(typeof deleted.body.data.message, 'string');
      expectError(
        await suite.h.api('DELETE', `/servers/${s.id}/logfiles/${current.filename}`, { token: suite.h.adminToken }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await suite.h.api('GET', `/servers/${s.id}/logfiles/${current.filename}/download`, { token: suite.h.viewerToken }),
        404,
        'NOT_FOUND',
      );
    } finally {
      await killGames(suite.h);
    }
  });

  it('never serves or deletes a file outside the log folder, whatever the name holds', async () => {
    const s = (await createGameServer(suite.h, suite.fake)) as Awaited<ReturnType<typeof createGameServer>> & {
      installation_shared_with?: unknown[];
    };
    await mkdir(logDir(s), { recursive: true });
    await writeFile(join(suite.fake.dir, 'secret.rpt'), 'outside the folder');
    await symlink('/etc/passwd', join(logDir(s), 'passwd.rpt')); // a link that cannot be made fails the test: it would test nothing
    await symlink(join(suite.fake.dir, 'secret.rpt'), join(logDir(s), 'escape.rpt'));
    // Sent over a plain socket: an HTTP client would resolve `..` (and `%2E%2E`) before sending.
    const names = [
      '..%2Fsecret.rpt',
      '..%5Csecret.rpt',
      '%2Fetc%2Fpasswd',
      '..',
      '.',
      '%2E%2E',
      '%2E%2E%2Fsecret.rpt',
      'a%00.rpt',
      '....%2F%2Fsecret.rpt',
      '%252e%252e%252fsecret.rpt',
      'passwd.rpt',
      'escape.rpt',
      '.hidden.rpt',
      encodeURIComponent(join(suite.fake.dir, 'secret.rpt')),
    ];
    for (const name of names) {
      for (const [method, path] of [
        ['GET', `/servers/${s.id}/logfiles/${name}/download`],
        ['DELETE', `/servers/${s.id}/logfiles/${name}`],
      ] as const) {
        const host = new URL(suite.h.url).host;
        const res = await rawRequest(
          suite.h.url,
          `${method} /api${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${suite.h.adminToken}\r\nConnection: close\r\n\r\n`,
        );
        assert.ok([400, 404].includes(res.status), `${method} ${name}: ${res.status} ${res.body}`);
        assert.doesNotMatch(res.text, /outside the folder|root:/, `${method} ${name} leaked a file`);
      }
    }
    assert.equal((await suite.h.api('GET', `/servers/${s.id}`, { token: suite.h.adminToken })).status, 200, 'the server is still there');
    const listed = (await suite.h.api('GET', `/servers/${s.id}/logfiles`, { token: suite.h.viewerToken })).body.data.map(
      (f: { filename: string }) => f.filename,
    );
    assert.ok(!listed.includes('passwd.rpt') && !listed.includes('escape.rpt'), 'links out of the folder are not listed');
  });

  it('serves the generated config files to admins, and nothing else', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const cfg = await raw(`/servers/${s.id}/config/download/server.cfg`, suite.h.adminToken);
    assert.equal(cfg.status, 200);
    assert.match(cfg.headers.get('content-type')!, /^text\/plain/);
    assert.match(await cfg.text(), /^hostname = /m);
    assert.equal((await raw(`/servers/${s.id}/config/download/server.GameaProfile`, suite.h.adminToken)).status, 200);
    for (const name of ['BEServer_x64.cfg', '..%2Fserver.cfg', 'garrison.db', '%2Fetc%2Fpasswd']) {
      expectError(await suite.h.api('GET', `/servers/${s.id}/config/download/${name}`, { token: suite.h.adminToken }), 404, 'NOT_FOUND');
    }
    expectError(await suite.h.api('GET', `/servers/${s.id}/config/download/server.cfg`, { token: suite.h.viewerToken }), 403, 'FORBIDDEN');
  });
});
