import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  MIRROR_TRAILER_BODY,
  PacketReader,
  PacketSizeError,
  RawSourceConnection,
  SERVERDATA_AUTH,
  SERVERDATA_AUTH_RESPONSE,
  SERVERDATA_EXECCOMMAND,
  SERVERDATA_RESPONSE_VALUE,
  SourceRconServer,
  bigReplyText,
  encodePacket,
  encodeReply,
} from '../src/index.js';

const PASSWORD = 'Source!Pass 1';

async function withServer(run: (server: SourceRconServer) => Promise<void>): Promise<void> {
  const server = await SourceRconServer.start({
    password: PASSWORD,
    handler: (command) => {
      const big = /^big (\d+)$/.exec(command);
      if (big) return bigReplyText(Number(big[1]));
      if (command === 'fail') throw new Error('it failed');
      return `you said: ${command}\n`;
    },
  });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

describe('the Source RCON codec', () => {
  it('encodes size, id, type, body and the two NULs, little-endian', () => {
    const packet = encodePacket(7, SERVERDATA_EXECCOMMAND, 'status');
    assert.equal(packet.toString('hex'), '10000000' + '07000000' + '02000000' + Buffer.from('status').toString('hex') + '0000');
    assert.equal(encodePacket(-1, SERVERDATA_AUTH_RESPONSE).toString('hex'), '0a000000ffffffff020000000000');
  });

  it('splits an answer into bodies of at most 4096 bytes, one empty packet for an empty answer', () => {
    const parts = encodeReply(5, bigReplyText(20_000));
    assert.deepEqual(
      parts.map((p) => p.readInt32LE(0) - 10),
      [4096, 4096, 4096, 4096, 3616],
    );
    assert.equal(encodeReply(5, '').length, 1);
    assert.equal(encodeReply(5, '')[0].readInt32LE(0), 10);
  });

  it('frames a byte stream cut anywhere, and refuses a size it cannot frame', () => {
    const stream = Buffer.concat([encodePacket(1, 2, 'one'), encodePacket(2, 0, MIRROR_TRAILER_BODY), encodePacket(3, 3, 'three')]);
    for (let cut = 1; cut < stream.length; cut += 1) {
      const reader = new PacketReader();
      const got = [...reader.push(stream.subarray(0, cut)), ...reader.push(stream.subarray(cut))];
      assert.deepEqual(
        got.map((p) => [p.id, p.type, p.body]),
        [
          [1, 2, 'one'],
          [2, 0, ''],
          [3, 3, 'three'],
        ],
      );
      assert.deepEqual(got[1].raw, MIRROR_TRAILER_BODY);
      assert.equal(reader.buffered, 0);
    }
    const tooBig = Buffer.alloc(12);
    tooBig.writeInt32LE(4097, 0);
    assert.throws(() => new PacketReader().push(tooBig), PacketSizeError);
    const tooSmall = Buffer.alloc(12);
    tooSmall.writeInt32LE(9, 0);
    assert.throws(() => new PacketReader().push(tooSmall), PacketSizeError);
  });
});

describe('SourceRconServer on real TCP', () => {
  it('answers an auth with an empty RESPONSE_VALUE, then an AUTH_RESPONSE with the id', () =>
    withServer(async (server) => {
      const c = await RawSourceConnection.open('127.0.0.1', server.port);
      try {
        c.send(42, SERVERDATA_AUTH, PASSWORD);
        const [first, second] = await c.waitForPackets(2);
        assert.deepEqual([first.id, first.type, first.body], [42, SERVERDATA_RESPONSE_VALUE, '']);
        assert.deepEqual([second.id, second.type, second.body], [42, SERVERDATA_AUTH_RESPONSE, '']);
        assert.equal(server.authenticated, 1);
        const { body, packets } = await c.command('hello there', 7);
        assert.equal(body, 'you said: hello there\n');
        assert.deepEqual(
          packets.map((p) => p.id),
          [7],
        );
      } finally {
        await c.close();
      }
    }));

  it('answers a wrong password with id -1 and runs no command for that connection', () =>
    withServer(async (server) => {
      const c = await RawSourceConnection.open('127.0.0.1', server.port);
      try {
        c.send(9, SERVERDATA_AUTH, 'wrong');
        const [first, second] = await c.waitForPackets(2);
        assert.deepEqual([first.id, first.type], [9, SERVERDATA_RESPONSE_VALUE]);
        assert.deepEqual([second.id, second.type], [-1, SERVERDATA_AUTH_RESPONSE]);
        assert.equal(server.authenticated, 0);
        c.send(10, SERVERDATA_EXECCOMMAND, 'status');
        const [, , refusal] = await c.waitForPackets(3);
        assert.deepEqual([refusal.id, refusal.type], [-1, SERVERDATA_AUTH_RESPONSE]);
        await c.closed;
        assert.equal(c.packets.length, 3, 'no answer to the command');
      } finally {
        await c.close();
      }
    }));

  it('splits a 20 000-byte answer into 5 packets with the id, then echoes the empty RESPONSE_VALUE and sends the trailer', () =>
    withServer(async (server) => {
      const c = await RawSourceConnection.open('127.0.0.1', server.port);
      try {
        assert.equal(await c.auth(PASSWORD), true);
        const start = c.packets.length;
        c.send(77, SERVERDATA_EXECCOMMAND, 'big 20000');
        c.send(78, SERVERDATA_RESPONSE_VALUE);
        const got = (await c.waitForPackets(start + 7)).slice(start);
        assert.deepEqual(
          got.map((p) => [p.id, p.type, p.raw.length]),
          [
            [77, 0, 4096],
            [77, 0, 4096],
            [77, 0, 4096],
            [77, 0, 4096],
            [77, 0, 3616],
            [78, 0, 0],
            [78, 0, 4],
          ],
        );
        assert.deepEqual(got[6].raw, MIRROR_TRAILER_BODY);
        assert.equal(Buffer.concat(got.slice(0, 5).map((p) => p.raw)).toString(), bigReplyText(20_000));
        // Any size: one byte over a packet, and a long one.
        for (const size of [4097, 300_000]) assert.equal((await c.command(`big ${size}`, 200)).body, bigReplyText(size));
      } finally {
        await c.close();
      }
    }));

  it('answers a handler that throws with its message, and keeps the connection', () =>
    withServer(async (server) => {
      const c = await RawSourceConnection.open('127.0.0.1', server.port);
      try {
        assert.equal(await c.auth(PASSWORD), true);
        assert.equal((await c.command('fail')).body, 'it failed\n');
        assert.equal((await c.command('again')).body, 'you said: again\n');
      } finally {
        await c.close();
      }
    }));

  it('closes a connection that sends a packet larger than 4096 bytes, or an impossible size', () =>
    withServer(async (server) => {
      for (const size of [5000, 3, -20]) {
        const c = await RawSourceConnection.open('127.0.0.1', server.port);
        try {
          const header = Buffer.alloc(12);
          header.writeInt32LE(size, 0);
          c.sendRaw(header);
          await c.closed;
          assert.equal(c.packets.length, 0, `size ${size}`);
        } finally {
          await c.close();
        }
      }
    }));

  it('serves several clients at once, each logged in on its own, answers in request order', () =>
    withServer(async (server) => {
      const clients = await Promise.all([1, 2, 3].map(() => RawSourceConnection.open('127.0.0.1', server.port)));
      try {
        assert.deepEqual(await Promise.all(clients.map((c, i) => c.auth(i === 1 ? 'nope' : PASSWORD))), [true, false, true]);
        assert.equal(server.authenticated, 2);
        const answers = await Promise.all([clients[0].command('big 9000', 10), clients[2].command('from three', 10)]);
        assert.equal(answers[0].body, bigReplyText(9000));
        assert.equal(answers[1].body, 'you said: from three\n');
        // Pipelined without waiting: answers come back in the order the commands went.
        const c = clients[0];
        const start = c.packets.length;
        for (let id = 1; id <= 5; id += 1) c.send(id, SERVERDATA_EXECCOMMAND, `n${id}`);
        const got = (await c.waitForPackets(start + 5)).slice(start);
        assert.deepEqual(
          got.map((p) => [p.id, p.body]),
          [1, 2, 3, 4, 5].map((id) => [id, `you said: n${id}\n`]),
        );
        server.dropConnections();
        await Promise.all(clients.map((cl) => cl.closed));
      } finally {
        await Promise.all(clients.map((cl) => cl.close()));
      }
    }));
});
