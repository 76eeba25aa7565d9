import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rconCodec } from '../src/index.js';
import { rawPacket } from './source-server.js';

const { encodePacket, RconProtocolError, MAX_BODY } = rconCodec;

/** The reader, its packets without the bytes beside each body (checked on their own below). */
class PacketReader extends rconCodec.PacketReader {
  override push(chunk: Buffer): rconCodec.ReceivedPacket[] {
    // Typed as the base's so that the override stands; the tests compare the plain packets.
    return super.push(chunk).map(({ bytes: _, ...packet }) => packet) as rconCodec.ReceivedPacket[];
  }
}

describe('Source RCON codec', () => {
  it('writes the bytes of the protocol: size, id, type little-endian, body, two NULs', () => {
    assert.deepEqual(encodePacket({ id: 7, type: 3, body: 'pw' }), Buffer.from([12, 0, 0, 0, 7, 0, 0, 0, 3, 0, 0, 0, 0x70, 0x77, 0, 0]));
    assert.deepEqual(encodePacket({ id: -1, type: 2, body: '' }), Buffer.from([10, 0, 0, 0, 255, 255, 255, 255, 2, 0, 0, 0, 0, 0]));
    assert.deepEqual(encodePacket({ id: 42, type: 0, body: 'status' }), rawPacket(42, 0, 'status'));
  });

  it('reads back what it writes, UTF-8 bodies and negative ids included', () => {
    for (const packet of [
      { id: 1, type: 3, body: 'secret' },
      { id: -1, type: 2, body: '' },
      { id: 0x7fffffff, type: 0, body: 'Spieler "Ü" ✓' },
      { id: 5, type: 0, body: 'x'.repeat(MAX_BODY) },
    ]) {
      assert.deepEqual(new PacketReader().push(encodePacket(packet)), [packet]);
    }
    assert.throws(() => encodePacket({ id: 1, type: 2, body: 'x'.repeat(MAX_BODY + 1) }), RangeError);
  });

  it('joins a packet split over several reads, down to single bytes', () => {
    const bytes = rawPacket(9, 0, 'hostname: Test\nmap     : de_dust2\n');
    const reader = new PacketReader();
    const out = [];
    for (const byte of bytes) out.push(...reader.push(Buffer.from([byte])));
    assert.deepEqual(out, [{ id: 9, type: 0, body: 'hostname: Test\nmap     : de_dust2\n' }]);
    assert.equal(reader.pending, 0);
  });

  it('cuts several packets out of one read, and keeps the start of the next one for later', () => {
    const stream = Buffer.concat([rawPacket(1, 0, ''), rawPacket(1, 2, ''), rawPacket(2, 0, 'a'), rawPacket(3, 0, 'bcd')]);
    const reader = new PacketReader();
    const first = reader.push(stream.subarray(0, stream.length - 5));
    assert.deepEqual(first, [
      { id: 1, type: 0, body: '' },
      { id: 1, type: 2, body: '' },
      { id: 2, type: 0, body: 'a' },
    ]);
    assert.equal(reader.pending, rawPacket(3, 0, 'bcd').length - 5);
    assert.deepEqual(reader.push(stream.subarray(stream.length - 5)), [{ id: 3, type: 0, body: 'bcd' }]);
  });

  it('gives each body also as its bytes, to join an answer whose packets split a character', () => {
    const [packet] = new rconCodec.PacketReader().push(rawPacket(3, 0, 'ü'));
    assert.deepEqual(packet.bytes, Buffer.from('ü'));
  });

  it("reads srcds's odd packet after a mirrored end marker (body 00 01 00 00) as an empty body", () => {
    assert.deepEqual(new PacketReader().push(rawPacket(4, 0, Buffer.from([0, 1, 0, 0]))), [{ id: 4, type: 0, body: '' }]);
  });

  it('refuses a size below 10 or above the largest packet: the stream is not Source RCON', () => {
    for (const size of [9, 0, -5, MAX_BODY + 11, 0x7fffffff]) {
      const header = Buffer.alloc(12);
      header.writeInt32LE(size, 0);
      assert.throws(() => new PacketReader().push(header), RconProtocolError, `size ${size}`);
    }
    // HTTP spoken to an RCON port: its first four bytes read as a huge size.
    assert.throws(() => new PacketReader().push(Buffer.from('GET / HTTP/1.1\r\n')), RconProtocolError);
    // The largest allowed packet is read.
    assert.equal(new PacketReader().push(rawPacket(1, 0, 'y'.repeat(MAX_BODY)))[0].body.length, MAX_BODY);
  });
});
