/**
 * Valve's Source RCON packets over TCP: `size:int32 LE | id:int32 LE | type:int32 LE | body | \0 | \0`, where
 * `size` counts everything after itself (so an empty body gives 10). The body is ASCII in Valve's words;
 * games put UTF-8 in it (player names), so it is read and written as UTF-8.
 */

export const SERVERDATA_AUTH = 3;
export const SERVERDATA_EXECCOMMAND = 2;
export const SERVERDATA_AUTH_RESPONSE = 2;
export const SERVERDATA_RESPONSE_VALUE = 0;

/** id, type and the two NUL bytes: what `size` counts besides the body. */
export const PACKET_OVERHEAD = 10;
/** The largest body a server sends in one packet (a longer answer comes in several); what we send is held to it too. */
export const MAX_BODY = 4096;
export const MAX_PACKET_SIZE = MAX_BODY + PACKET_OVERHEAD;

export interface Packet {
  id: number;
  type: number;
  body: string;
}

/** A packet as read: its body also as bytes, for an answer whose packets split a UTF-8 character between them. */
export interface ReceivedPacket extends Packet {
  bytes: Buffer;
}

/** A stream that is not Source RCON (or is broken): the connection cannot be read further and is closed. */
export class RconProtocolError extends Error {}

export function encodePacket(packet: Packet): Buffer {
  const body = Buffer.from(packet.body, 'utf8');
  if (body.length > MAX_BODY) throw new RangeError(`an RCON packet body has at most ${MAX_BODY} bytes, not ${body.length}`);
  const out = Buffer.alloc(4 + PACKET_OVERHEAD + body.length);
  out.writeInt32LE(PACKET_OVERHEAD + body.length, 0);
  out.writeInt32LE(packet.id, 4);
  out.writeInt32LE(packet.type, 8);
  body.copy(out, 12);
  // The two terminating NUL bytes are already there: Buffer.alloc zero-fills.
  return out;
}

/**
 * Cuts a TCP byte stream into packets: a packet may arrive split over several reads, and one read may
 * hold several packets. A size outside what the protocol allows means the stream is not (or no longer)
 * Source RCON: it throws, and the reader must not be fed again.
 */
export class PacketReader {
  private buffered: Buffer = Buffer.alloc(0);

  constructor(private readonly maxSize = MAX_PACKET_SIZE) {}

  push(chunk: Buffer): ReceivedPacket[] {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const packets: ReceivedPacket[] = [];
    for (;;) {
      if (this.buffered.length < 4) break;
      const size = this.buffered.readInt32LE(0);
      if (size < PACKET_OVERHEAD || size > this.maxSize) {
        this.buffered = Buffer.alloc(0);
        throw new RconProtocolError(`an RCON packet of size ${size} (the protocol allows ${PACKET_OVERHEAD} to ${this.maxSize})`);
      }
      if (this.buffered.length < 4 + size) break;
      const packet = this.buffered.subarray(0, 4 + size);
      this.buffered = this.buffered.subarray(4 + size);
      packets.push(decodeFrame(packet, size));
    }
    return packets;
  }

  /** Bytes received that do not yet make a whole packet. */
  get pending(): number {
    return this.buffered.length;
  }
}

function decodeFrame(frame: Buffer, size: number): ReceivedPacket {
  // The body runs to the two NUL bytes; a server that sends only one (or a NUL inside) is read up to its first NUL.
  const raw = frame.subarray(12, 4 + size);
  const nul = raw.indexOf(0);
  const bytes = Buffer.from(raw.subarray(0, nul < 0 ? raw.length : nul));
  return { id: frame.readInt32LE(4), type: frame.readInt32LE(8), body: bytes.toString('utf8'), bytes };
}
