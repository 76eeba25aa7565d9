import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { readdir, writeFile, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor, withDeadline } from '@garrison/testkit';
import { expectError, multipart } from './helpers.js';
import { gameService, createGameServer } from './games.js';
import { rawRequest } from './raw-http.js';

const LIMIT = 256 * 1024;

describe('missions: upload, list, rotation, delete', () => {
  const suite = gameService({ missionUploadLimitBytes: LIMIT });

  const missionsDir = () => join(suite.fake.dir, 'mpmissions');
  const leftovers = async () => (await readdir(missionsDir())).filter((f) => f.startsWith('.upload-'));
  const upload = (id: number, parts: Parameters<typeof multipart>[0], path = 'missions', token = suite.h.adminToken) => {
    const { body, type } = multipart(parts);
    return fetch(`${suite.h.url}/api/servers/${id}/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      body,
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as any,
      headers: r.headers,
    }));
  };

  it('streams an upload into place, reduces its name to the base name, and lists it', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const content = Buffer.alloc(100 * 1024, 7);
    const res = await upload(s.id, [
      { name: 'note', content: 'ignored field' },
      { name: 'file', filename: '../../evil/co10_Escape.Altis.pbo', content },
    ]);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, {
      filename: 'co10_Escape.Altis.pbo',
      mission_name: 'co10_Escape.Altis',
      terrain: 'Altis',
      file_size: content.length,
    });
    const alias = await upload(s.id, [{ name: 'file', filename: 'C:\\missions\\tdm_Arena.Stratis.pbo', content: 'x' }], 'missions/upload');
    assert.equal(alias.status, 201, JSON.stringify(alias.body));
    assert.equal(alias.body.data.filename, 'tdm_Arena.Stratis.pbo');

    const list = (await suite.h.api('GET', `/servers/${s.id}/missions`, { token: suite.h.viewerToken })).body.data;
    assert.equal(list.server_id, s.id);
    assert.deepEqual(
      list.missions.find((m: { filename: string }) => m.filename === 'co10_Escape.Altis.pbo'),
      { name: 'co10_Escape.Altis', filename: 'co10_Escape.Altis.pbo', size_bytes: content.length, terrain: 'Altis' },
    );
    assert.equal(list.total, list.missions.length);
    assert.deepEqual(await leftovers(), []);
  });

  it('refuses what the game would not load, a missing name or part, and too large a file, leaving nothing behind', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    expectError((await upload(s.id, [{ name: 'file', filename: 'readme.txt', content: 'x' }])) as never, 400, 'ADAPTER_ERROR');
    expectError((await upload(s.id, [{ name: 'file', filename: 'noterrain.pbo', content: 'x' }])) as never, 400, 'ADAPTER_ERROR');
    expectError((await upload(s.id, [{ name: 'file', filename: '', content: 'x' }])) as never, 400, 'NO_FILENAME');
    expectError((await upload(s.id, [{ name: 'other', filename: 'a.Altis.pbo', content: 'x' }])) as never, 400, 'VALIDATION_ERROR');
    expectError(
      await suite.h.api('POST', `/servers/${s.id}/missions`, { token: suite.h.adminToken, body: { file: 'x' } }),
      400,
      'VALIDATION_ERROR',
    );
    const big = await upload(s.id, [{ name: 'file', filename: 'big.Altis.pbo', content: Buffer.alloc(LIMIT + 1024) }]);
    expectError(big as never, 413, 'FILE_TOO_LARGE');
    expectError(
      (await upload(s.id, [{ name: 'file', filename: 'x.Altis.pbo', content: 'x' }], 'missions', suite.h.viewerToken)) as never,
      403,
      'FORBIDDEN',
    );
    const names = await readdir(missionsDir());
    assert.deepEqual(
      names.filter((n) => n.startsWith('.upload-') || n.startsWith('big') || n.startsWith('readme')),
      [],
    );
  });

  it('takes a file of exactly the size limit, and refuses one byte more', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const exact = await upload(s.id, [{ name: 'file', filename: 'exact.Altis.pbo', content: Buffer.alloc(LIMIT, 2) }]);
    assert.equal(exact.status, 201, JSON.stringify(exact.body));
    assert.equal(exact.body.data.file_size, LIMIT);
    expectError(
      (await upload(s.id, [{ name: 'file', filename: 'over.Altis.pbo', content: Buffer.alloc(LIMIT + 1, 2) }])) as never,
      413,
      'FILE_TOO_LARGE',
    );
    assert.deepEqual(await leftovers(), []);
  });

  it('refuses a bad name as soon as the part begins, before the body is sent or a byte is written', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    for (const [filename, code] of [
      ['readme.txt', 'ADAPTER_ERROR'],
      ['.hidden.Altis.pbo', 'ADAPTER_ERROR'],
      ['', 'NO_FILENAME'],
    ] as const) {
      const { body, type } = multipart([{ name: 'file', filename, content: Buffer.alloc(200 * 1024, 1) }]);
      const socket = connect(Number(new URL(suite.h.url).port), '127.0.0.1');
      try {
        socket.write(
          `POST /api/servers/${s.id}/missions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${suite.h.adminToken}\r\n` +
            `Content-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.write(body.subarray(0, 1024)); // the part's headers and a little of the file; the rest never comes
        const answer = await withDeadline(
          new Promise<string>((resolve) => {
            let text = '';
            socket.on('data', (chunk) => {
              text += String(chunk);
              if (/\r\n\r\n[\s\S]*\}/.test(text)) resolve(text);
            });
          }),
          10_000,
          `the answer to ${filename}`,
        );
        assert.match(answer, /^HTTP\/1\.1 400 /);
        assert.match(answer, new RegExp(`"code":"${code}"`));
      } finally {
        socket.destroy();
      }
    }
    assert.deepEqual(await leftovers(), []);
  });

  it('leaves nothing behind when the client goes away in the middle of an upload', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const { body, type } = multipart([{ name: 'file', filename: 'cut.Altis.pbo', content: Buffer.alloc(200 * 1024, 1) }]);
    const socket = connect(Number(new URL(suite.h.url).port), '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      `POST /api/servers/${s.id}/missions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${suite.h.adminToken}\r\n` +
        `Content-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, 100 * 1024));
    await waitFor(async () => (await leftovers()).length > 0, { what: 'the upload to begin' });
    socket.destroy();
    await waitFor(async () => (await leftovers()).length === 0, { what: 'the partial file to be removed' });
    assert.ok(!(await readdir(missionsDir())).includes('cut.Altis.pbo'));
  });

  it("keeps the rotation under the server section's version, renders it, and guards deletes", async () => {
    const s = await createGameServer(suite.h, suite.fake);
    await upload(s.id, [{ name: 'file', filename: 'co12_Hold.Tanoa.pbo', content: 'x' }]);
    const first = (await suite.h.api('GET', `/servers/${s.id}/missions/rotation`, { token: suite.h.viewerToken })).body.data;
    assert.deepEqual(first.missions, []);
    const missions = [
      { name: 'co12_Hold.Tanoa', difficulty: 'Veteran' },
      { name: 'co10_Escape.Altis', difficulty: '' },
    ];
    const put = await suite.h.api('PUT', `/servers/${s.id}/missions/rotation`, {
      token: suite.h.adminToken,
      body: { missions, config_version: first.config_version },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(put.body.data.missions, missions);
    const stale = await suite.h.api('PUT', `/servers/${s.id}/missions/rotation`, {
      token: suite.h.adminToken,
      body: { missions: [], config_version: first.config_version },
    });
    const conflict = expectError(stale, 409, 'CONFIG_VERSION_CONFLICT');
    assert.equal(conflict.current_version, put.body.data.config_version);
    assert.deepEqual((conflict.current_config as { missions: unknown }).missions, missions);
    expectError(
      await suite.h.api('PUT', `/servers/${s.id}/missions/rotation`, {
        token: suite.h.adminToken,
        body: { missions: [{ name: 'x.Altis', difficulty: 'Hard' }], config_version: put.body.data.config_version },
      }),
      400,
      'VALIDATION_ERROR',
    );

    const preview = (await suite.h.api('GET', `/servers/${s.id}/config/preview`, { token: suite.h.adminToken })).body.data[
      'server.cfg'
    ] as string;
    assert.match(preview, /template = "co12_Hold\.Tanoa";/);
    assert.match(preview, /difficulty = "Veteran";/);

    expectError(
      await suite.h.api('DELETE', `/servers/${s.id}/missions/co12_Hold.Tanoa.pbo`, { token: suite.h.adminToken }),
      409,
      'MISSION_IN_ROTATION',
    );
    await suite.h.api('PUT', `/servers/${s.id}/missions/rotation`, {
      token: suite.h.adminToken,
      body: { missions: [], config_version: put.body.data.config_version },
    });
    assert.equal((await suite.h.api('DELETE', `/servers/${s.id}/missions/co12_Hold.Tanoa.pbo`, { token: suite.h.adminToken })).status, 200);
    expectError(
      await suite.h.api('DELETE', `/servers/${s.id}/missions/co12_Hold.Tanoa.pbo`, { token: suite.h.adminToken }),
      404,
      'NOT_FOUND',
    );

    // A rotation may name a mission not uploaded yet: saved, and said.
    const current = (await suite.h.api('GET', `/servers/${s.id}/missions/rotation`, { token: suite.h.adminToken })).body.data;
    const missing = await suite.h.api('PUT', `/servers/${s.id}/missions/rotation`, {
      token: suite.h.adminToken,
      body: { missions: [{ name: 'co12_Hold.Tanoa', difficulty: '' }], config_version: current.config_version },
    });
    assert.equal(missing.status, 200, JSON.stringify(missing.body));
    assert.deepEqual(missing.body.data.warnings, ['co12_Hold.Tanoa is not installed: no co12_Hold.Tanoa.pbo in the missions folder']);
    await upload(s.id, [{ name: 'file', filename: 'co12_Hold.Tanoa.pbo', content: 'x' }]);
    const installed = await suite.h.api('PUT', `/servers/${s.id}/missions/rotation`, {
      token: suite.h.adminToken,
      body: { missions: [{ name: 'co12_Hold.Tanoa', difficulty: '' }], config_version: missing.body.data.config_version },
    });
    assert.deepEqual(installed.body.data.warnings, []);
    await suite.h.api('PUT', `/servers/${s.id}/missions/rotation`, {
      token: suite.h.adminToken,
      body: { missions: [], config_version: installed.body.data.config_version },
    });
  });

  it('never deletes outside the missions folder', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    await mkdir(missionsDir(), { recursive: true });
    await writeFile(join(suite.fake.dir, 'keep.Altis.pbo'), 'outside');
    // No catch: without the link this tests nothing.
    await symlink(join(suite.fake.dir, 'keep.Altis.pbo'), join(missionsDir(), 'link.Altis.pbo'));
    const host = new URL(suite.h.url).host;
    for (const name of [
      '..%2Fkeep.Altis.pbo',
      '..%5Ckeep.Altis.pbo',
      '%2E%2E%2Fkeep.Altis.pbo',
      'link.Altis.pbo',
      'a%00.Altis.pbo',
      encodeURIComponent(join(suite.fake.dir, 'keep.Altis.pbo')),
    ]) {
      const res = await rawRequest(
        suite.h.url,
        `DELETE /api/servers/${s.id}/missions/${name} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ` +
          `Bearer ${suite.h.adminToken}\r\nConnection: close\r\n\r\n`,
      );
      assert.ok([400, 404].includes(res.status), `${name}: ${res.status} ${res.body}`);
    }
    assert.ok((await readdir(suite.fake.dir)).includes('keep.Altis.pbo'), 'the file outside is still there');
  });
});
