/**
 * Valve's Source RCON packets (developer.valvesoftware.com/wiki/Source_RCON_Protocol), as srcds puts them
 * on TCP: `size:int32 LE | id:int32 LE | type:int32 LE | body | \0 | \0`, where `size` counts everything
 * after itself (so 10 for an empty body). Nothing here is specific to the fake: a client can use it too.
 */
export const SERVERDATA_AUTH = 3;
export const SERVERDATA_EXECCOMMAND = 2;
export const SERVERDATA_AUTH_RESPONSE = 2;
export const SERVERDATA_RESPONSE_VALUE = 0;

/** The largest body srcds puts in one packet; longer answers go out in several packets with the same id. */
export const MAX_REPLY_BODY = 4096;
/** The largest `size` srcds accepts from a client; a bigger one ends the connection. */
export const MAX_REQUEST_SIZE = 4096;
/** The smallest legal `size`: id, type and the two terminating NULs. */
const MIN_PACKET_SIZE = 10;
/**
 * What srcds sends after echoing a RESPONSE_VALUE a client sent it: another RESPONSE_VALUE, same id, whose
 * body bytes are 00 01 00 00 (the wiki's "0x0000 0001 0000 0000"; clients such as xPaw's PHP-Source-Query
 * recognise it as `00 01 00 00 00 00` after the id and type, terminators included).
 */
export const MIRROR_TRAILER_BODY = Buffer.from([0x00, 0x01, 0x00, 0x00]);

export interface SourcePacket {
  id: number;
  type: number;
  /** The body text: the bytes before the first NUL, as UTF-8. */
  body: string;
  /** Every byte between the type and the two terminating NULs (a body may carry NULs, as the mirror trailer does). */
  raw: Buffer;
}

/** One packet on the wire. `body` goes out as UTF-8 (or as the bytes given). */
export function encodePacket(id: number, type: number, body: string | Buffer = ''): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const packet = Buffer.alloc(4 + MIN_PACKET_SIZE + bytes.length);
  packet.writeInt32LE(MIN_PACKET_SIZE + bytes.length, 0);
  packet.writeInt32LE(id, 4);
  packet.writeInt32LE(type, 8);
  bytes.copy(packet, 12);
  return packet; // the two NULs are the zeroes Buffer.alloc left at the end
}

/**
 * An answer as srcds sends it: RESPONSE_VALUE packets with the request's id, the body cut every
 * `maxBody` bytes (a cut may fall inside a UTF-8 character: a client joins the bytes, then decodes).
 * An empty answer is one empty packet.
 */
export function encodeReply(id: number, body: string | Buffer, maxBody = MAX_REPLY_BODY): Buffer[] {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (bytes.length === 0) return [encodePacket(id, SERVERDATA_RESPONSE_VALUE)];
  const packets: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += maxBody)
    packets.push(encodePacket(id, SERVERDATA_RESPONSE_VALUE, bytes.subarray(at, at + maxBody)));
  return packets;
}

export class PacketSizeError extends Error {}

/**
 * Splits a TCP byte stream into packets: TCP keeps no message boundaries, so a read may hold half a
 * packet or several. A `size` outside [MIN_PACKET_SIZE, maxSize] throws PacketSizeError: the stream
 * can no longer be framed, and the connection is to be closed.
 */
export class PacketReader {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly maxSize = MAX_REQUEST_SIZE) {}

  push(chunk: Buffer): SourcePacket[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const packets: SourcePacket[] = [];
    while (this.pending.length >= 4) {
      const size = this.pending.readInt32LE(0);
      if (size < MIN_PACKET_SIZE || size > this.maxSize)
        throw new PacketSizeError(`packet size ${size} is outside ${MIN_PACKET_SIZE}..${this.maxSize}`);
      if (this.pending.length < 4 + size) break;
      const raw = Buffer.from(this.pending.subarray(12, 4 + size - 2));
      const nul = raw.indexOf(0);
      packets.push({
        id: this.pending.readInt32LE(4),
        type: this.pending.readInt32LE(8),
        body: raw.subarray(0, nul < 0 ? raw.length : nul).toString('utf8'),
        raw,
      });
      this.pending = this.pending.subarray(4 + size);
    }
    return packets;
  }

  /** Bytes received that do not make a whole packet yet. */
  get buffered(): number {
    return this.pending.length;
  }
}
