import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { freeGamePorts } from '@garrison/testkit';
import { startHarness, type Harness } from './helpers.js';

// examples/adapter-mygame, the adapter the guide builds, loaded as a package folder into a real service.
const EXAMPLE = fileURLToPath(new URL('../../../examples/adapter-mygame', import.meta.url));

describe('the example external adapter', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ plugins: [EXAMPLE] });
  });
  after(() => h.close());

  it('loads from its package folder by its marker, and serves servers of its game', async () => {
    const games = (await h.api('GET', '/games')).body.data as { game_type: string }[];
    assert.ok(games.some((g) => g.game_type === 'mygame'));
    const created = await h.api('POST', '/servers', {
      token: h.adminToken,
      body: { name: 'Mine', game_type: 'mygame', exe_path: '/srv/mygame/mygame_server', ...(await freeGamePorts()) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(typeof created.body.data.admin_password, 'string', 'its credentials, shown once');
    const preview = (await h.api('GET', `/servers/${created.body.data.id}/config/preview`, { token: h.adminToken })).body.data;
    assert.match(preview['server.ini'], /^Name=My server\nMaxPlayers=16\nAdminPassword=\S+\n$/);
  });
});
