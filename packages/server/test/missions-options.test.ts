import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectError, multipart } from './helpers.js';
import { gameService, createGameServer } from './games.js';

const NONE_OF = 'is none of "", "Recruit", "Regular", "Veteran", "Custom" (in any case)';

// The first game's missions through the neutral service: its name parts and rotation options come from its
// adapter, and what a client sends and reads is what it was before, key order included.
describe("missions: the first game's terrain and difficulty, from its adapter, as the contract has them", () => {
  const suite = gameService({});
  const api = (method: string, path: string, body?: unknown) => suite.h.api(method, path, { token: suite.h.adminToken, body });
  const upload = async (id: number, filename: string) => {
    const { body, type } = multipart([{ name: 'file', filename, content: 'mission' }]);
    const r = await fetch(`${suite.h.url}/api/servers/${id}/missions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.h.adminToken}`, 'content-type': type },
      body,
    });
    return { status: r.status, body: (await r.json()) as any };
  };

  it('answers an upload and the list with the terrain where it always was', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const up = await upload(s.id, 'co10_Escape.Altis.pbo');
    assert.equal(up.status, 201, JSON.stringify(up.body));
    assert.equal(
      JSON.stringify(up.body.data),
      '{"filename":"co10_Escape.Altis.pbo","mission_name":"co10_Escape.Altis","terrain":"Altis","file_size":7}',
    );
    const version = await upload(s.id, 'mission_v2.0.pbo');
    assert.deepEqual(Object.keys(version.body.data), ['filename', 'mission_name', 'terrain', 'file_size', 'warning']);
    const list = (await api('GET', `/servers/${s.id}/missions`)).body.data.missions;
    assert.equal(
      JSON.stringify(list.find((m: { name: string }) => m.name === 'co10_Escape.Altis')),
      '{"name":"co10_Escape.Altis","filename":"co10_Escape.Altis.pbo","size_bytes":7,"terrain":"Altis"}',
    );
  });

  it('keeps each rotation entry as {name, difficulty}: any case in, capitalised, "" when left out', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const { config_version } = (await api('GET', `/servers/${s.id}/missions/rotation`)).body.data;
    const put = await api('PUT', `/servers/${s.id}/missions/rotation`, {
      missions: [
        { name: 'co10_Escape.Altis', difficulty: 'veteran' },
        { name: 'tdm_Arena.Stratis' },
        { difficulty: 'CUSTOM', name: 'a.b' },
      ],
      config_version,
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const stored =
      '[{"name":"co10_Escape.Altis","difficulty":"Veteran"},{"name":"tdm_Arena.Stratis","difficulty":""},' +
      '{"name":"a.b","difficulty":"Custom"}]';
    assert.equal(JSON.stringify(put.body.data.missions), stored);
    assert.equal(JSON.stringify((await api('GET', `/servers/${s.id}/missions/rotation`)).body.data.missions), stored);
  });

  it('refuses a difficulty the game has not, an option it has not, and a value that is not text, saying where', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const { config_version } = (await api('GET', `/servers/${s.id}/missions/rotation`)).body.data;
    const put = (missions: unknown[]) => api('PUT', `/servers/${s.id}/missions/rotation`, { missions, config_version });
    const ok = { name: 'co10_Escape.Altis' };
    assert.equal(
      expectError(await put([ok, { name: 'x.Altis', difficulty: 'Hard' }]), 400, 'VALIDATION_ERROR').message,
      `missions[1].difficulty: "Hard" ${NONE_OF}`,
    );
    assert.equal(expectError(await put([{ ...ok, size: 'large' }]), 400, 'VALIDATION_ERROR').message, "unknown field 'missions.0.size'");
    expectError(await put([{ ...ok, size: 5 }]), 400, 'VALIDATION_ERROR');
    expectError(await put([{ ...ok, difficulty: 1 }]), 400, 'VALIDATION_ERROR');
    assert.deepEqual((await api('GET', `/servers/${s.id}/missions/rotation`)).body.data.missions, [], 'nothing saved');
  });
});
