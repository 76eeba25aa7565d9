import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Socket } from '@senfo/battleye';
import { parsePlayers } from '@garrison/adapter-gamea';
import { FakeRconServer, waitFor } from '../src/index.js';

// @senfo/battleye is a BattlEye RCon client this project did not write (MIT, on npm). It routes
// answers by the server's literal address, so it must be given 127.0.0.1, not "localhost".
describe('an independent BattlEye client against FakeRconServer', () => {
  it('logs in, runs players (multi-part), and receives player messages', async () => {
    const server = await FakeRconServer.start({ password: 'Interop42', chunkSize: 64 });
    for (let i = 0; i < 5; i += 1) server.join(`Interop Player ${i}`, i.toString(16).padStart(32, 'b'), `10.0.0.${i + 1}`);
    const socket = new Socket();
    const connection = socket.connection(
      { name: 'interop', ip: '127.0.0.1', port: server.port, password: 'Interop42' },
      { reconnect: false, keepAlive: false, timeout: false, packetTimeout: 1000, packetTimeoutThresholded: 5 },
    );
    try {
      await once(connection, 'connected');
      const messages: string[] = [];
      connection.on('message', (message: string) => messages.push(message));

      const response = await connection.command('players');
      const players = parsePlayers(String(response.data));
      assert.deepEqual(
        players.map((p) => p.name),
        [0, 1, 2, 3, 4].map((i) => `Interop Player ${i}`),
      );
      assert.match(String(response.data), /\(5 players in total\)$/);

      const p = server.join('Late Joiner', 'c'.repeat(32), '10.9.9.9');
      await waitFor(() => messages.includes(`Player #${p.slot} Late Joiner (10.9.9.9:2304) connected`), { what: 'the join message' });
      assert.equal(server.connectedAdmins.length, 1, 'its acknowledgements kept it logged in');
    } finally {
      socket.close();
      await server.close();
    }
  });
});
