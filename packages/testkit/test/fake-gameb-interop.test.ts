import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import RconModule from 'rcon-srcds';
import { PacketReader, bigReplyText, launchFakeGameb, waitFor, withDeadline, type FakeGameb, type SourcePacket } from '../src/index.js';

// rcon-srcds is a Source RCON client this project did not write (MIT, on npm), so that the fake and
// Garrison's own client cannot share one misreading of the protocol. It is CommonJS: the class is `default`.
const Rcon = RconModule.default;
type RconClient = InstanceType<typeof Rcon>;

/**
 * rcon-srcds takes one socket read for one packet. Real srcds puts two packets in one read now and then
 * (its auth then hangs: github.com/EnriqCG/rcon-srcds/issues/9), and so does the fake by default; with
 * GAMEB_FAKE_PACKET_GAP_MS the fake spaces its packets so that each arrives on its own.
 */
const GAP = { GAMEB_FAKE_PACKET_GAP_MS: '40' };
const ID_TERM = 0x777; // what rcon-srcds sends as its empty RESPONSE_VALUE after a packet of more than 3700 bytes

describe('rcon-srcds, an independent client, against the fake gameb', () => {
  let game: FakeGameb;
  const clients: RconClient[] = [];
  before(async () => {
    game = await launchFakeGameb({ env: GAP });
    await game.command('testkit.join "Player One" STEAM_0:1:1234 1.2.3.4:27005');
  });
  after(async () => {
    for (const c of clients) if (c.isConnected()) await c.disconnect().catch(() => {});
    await game.stop();
  });

  const client = () => {
    const c = new Rcon({ host: '127.0.0.1', port: game.port, timeout: 5000 });
    clients.push(c);
    return c;
  };
  /** Every packet rcon-srcds writes, framed as the server reads them. */
  const sentBy = (c: RconClient): SourcePacket[] => {
    const sent: SourcePacket[] = [];
    const reader = new PacketReader();
    const socket = c.connection;
    const write: (chunk: Buffer) => boolean = socket.write.bind(socket);
    // rcon-srcds writes whole Buffers, one call per packet, without a callback.
    socket.write = (chunk: Buffer) => (sent.push(...reader.push(chunk)), write(chunk));
    return sent;
  };

  it('logs in, and reads status', async () => {
    const c = client();
    assert.equal(await withDeadline(c.authenticate(game.password), 10_000, 'rcon-srcds auth'), true);
    const status = String(await withDeadline(c.execute('status'), 10_000, 'rcon-srcds status'));
    assert.match(status, /^hostname: Fake gameb$/m);
    assert.match(status, /^players : 1 humans, 0 bots \(16 max\)$/m);
    assert.match(status, /^# {6}2 "Player One" +STEAM_0:1:1234 +\d\d:\d\d +\d+ +0 active 1\.2\.3\.4:27005$/m);
    assert.equal(await withDeadline(c.execute('echo from rcon-srcds'), 10_000, 'echo'), 'from rcon-srcds\n');
    await c.disconnect();
  });

  it('gathers an answer split over 5 packets, whole and exact', async () => {
    const c = client();
    await withDeadline(c.authenticate(game.password), 10_000, 'rcon-srcds auth');
    const sent = sentBy(c);
    const answer = await withDeadline(c.execute('testkit.bigreply 20000'), 10_000, 'rcon-srcds split answer');
    assert.equal(answer, bigReplyText(20_000));
    // Its end-of-answer probe ran: a full packet (4096 bytes of body) it read makes it send an empty
    // RESPONSE_VALUE, one per read, so fewer when a busy machine hands it several packets at once.
    const [command, ...probes] = sent.map((p) => [p.type, p.id === ID_TERM ? 'term' : 'command', p.body]);
    assert.deepEqual(command, [2, 'command', 'testkit.bigreply 20000']);
    assert.ok(probes.length >= 1 && probes.length <= 4, `${probes.length} probes`);
    for (const probe of probes) assert.deepEqual(probe, [0, 'term', '']);
    await c.disconnect();
  });

  it('is refused with a wrong password', async () => {
    const c = client();
    await assert.rejects(withDeadline(c.authenticate('not the password'), 10_000, 'rcon-srcds auth'), /Unable to authenticate/);
    await waitFor(() => game.process.stdout.some((l) => /rcon from "127\.0\.0\.1:\d+": Bad Password$/.test(l)), {
      what: 'the Bad Password log line',
    });
  });
});
