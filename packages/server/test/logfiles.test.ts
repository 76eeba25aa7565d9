import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { symlink, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { installFakeGameaTemp, waitFor } from '@garrison/testkit';
import { expectError, startHarness, type Harness } from './helpers.js';
import { rawRequest } from './raw-http.js';
import { FAST_SUPERVISION, createGameServer, killGames, runningGameServer, type FakeInstall } from './games.js';

describe('log files and config downloads', () => {
  let h: Harness;
  let fake: FakeInstall;
  before(async () => {
    fake = await installFakeGameaTemp();
    h = await startHarness(FAST_SUPERVISION);
  });
  after(async () => {
    await killGames(h);
    await h.close();
    await fake.remove();
  });

  const raw = (path: string, token = h.viewerToken) => fetch(`${h.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  const logDir = () => join(fake.dir, 'server');

  it('lists the .rpt files, streams one as text, and refuses to delete the one the running game writes', async () => {
    const s = await runningGameServer(h, fake);
    try {
      const files = await waitFor(async () => {
        const list = (await h.api('GET', `/servers/${s.id}/logfiles`, { token: h.viewerToken })).body.data as { filename: string; size_bytes: number; modified_at: string }[];
        return list.length > 0 && list;
      }, { what: 'a log file' });
      const current = files.at(-1)!;
      assert.match(current.filename, /^gameaserver_x64_.*\.rpt$/);
      assert.ok(current.size_bytes > 0);
      assert.ok(Date.parse(current.modified_at));

      const download = await raw(`/servers/${s.id}/logfiles/${current.filename}/download`);
      assert.equal(download.status, 200);
      assert.match(download.headers.get('content-type')!, /^text\/plain/);
      assert.match(await download.text(), /Dedicated host created\./);

      expectError(await h.api('DELETE', `/servers/${s.id}/logfiles/${current.filename}`, { token: h.viewerToken }), 403, 'FORBIDDEN');
      expectError(await h.api('DELETE', `/servers/${s.id}/logfiles/${current.filename}`, { token: h.adminToken }), 409, 'CONFLICT');
      await h.api('POST', `/servers/${s.id}/stop`, { token: h.adminToken });
      const deleted = await h.api('DELETE', `/servers/${s.id}/logfiles/${current.filename}`, { token: h.adminToken });
      assert.equal(deleted.status, 200);
      assert.equal(typeof deleted.body.data.message, 'string');
      expectError(await h.api('DELETE', `/servers/${s.id}/logfiles/${current.filename}`, { token: h.adminToken }), 404, 'NOT_FOUND');
      expectError(await h.api('GET', `/servers/${s.id}/logfiles/${current.filename}/download`, { token: h.viewerToken }), 404, 'NOT_FOUND');
    } finally {
      await killGames(h);
    }
  });

  it('never serves or deletes a file outside the log folder, whatever the name holds', async () => {
    const s = await createGameServer(h, fake);
    await mkdir(logDir(), { recursive: true });
    await writeFile(join(fake.dir, 'secret.rpt'), 'outside the folder');
    await symlink('/etc/passwd', join(logDir(), 'passwd.rpt')).catch(() => {});
    await symlink(join(fake.dir, 'secret.rpt'), join(logDir(), 'escape.rpt')).catch(() => {});
    // Sent over a plain socket: an HTTP client would resolve `..` (and `%2E%2E`) before sending.
    const names = [
      '..%2Fsecret.rpt', '..%5Csecret.rpt', '%2Fetc%2Fpasswd', '..', '.', '%2E%2E', '%2E%2E%2Fsecret.rpt', 'a%00.rpt', '....%2F%2Fsecret.rpt',
      '%252e%252e%252fsecret.rpt', 'passwd.rpt', 'escape.rpt', '.hidden.rpt', encodeURIComponent(join(fake.dir, 'secret.rpt')),
    ];
    for (const name of names) {
      for (const [method, path] of [['GET', `/servers/${s.id}/logfiles/${name}/download`], ['DELETE', `/servers/${s.id}/logfiles/${name}`]] as const) {
        const host = new URL(h.url).host;
        const res = await rawRequest(h.url, `${method} /api${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${h.adminToken}\r\nConnection: close\r\n\r\n`);
        assert.ok([400, 404].includes(res.status), `${method} ${name}: ${res.status} ${res.body}`);
        assert.doesNotMatch(res.text, /outside the folder|root:/, `${method} ${name} leaked a file`);
      }
    }
    assert.equal((await h.api('GET', `/servers/${s.id}`, { token: h.adminToken })).status, 200, 'the server is still there');
    const listed = (await h.api('GET', `/servers/${s.id}/logfiles`, { token: h.viewerToken })).body.data.map((f: { filename: string }) => f.filename);
    assert.ok(!listed.includes('passwd.rpt') && !listed.includes('escape.rpt'), 'links out of the folder are not listed');
  });

  it('serves the generated config files to admins, and nothing else', async () => {
    const s = await createGameServer(h, fake);
    const cfg = await raw(`/servers/${s.id}/config/download/server.cfg`, h.adminToken);
    assert.equal(cfg.status, 200);
    assert.match(cfg.headers.get('content-type')!, /^text\/plain/);
    assert.match(await cfg.text(), /^hostname = /m);
    assert.equal((await raw(`/servers/${s.id}/config/download/server.GameaProfile`, h.adminToken)).status, 200);
    for (const name of ['BEServer_x64.cfg', '..%2Fserver.cfg', 'garrison.db', '%2Fetc%2Fpasswd']) {
      expectError(await h.api('GET', `/servers/${s.id}/config/download/${name}`, { token: h.adminToken }), 404, 'NOT_FOUND');
    }
    expectError(await h.api('GET', `/servers/${s.id}/config/download/server.cfg`, { token: h.viewerToken }), 403, 'FORBIDDEN');
  });
});
