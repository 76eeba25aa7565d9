import { crc32 } from 'node:zlib';

/**
 * BattlEye RCon protocol v2 over UDP. Every datagram is
 * `'B' 'E' <CRC32 of the rest, little-endian> 0xFF <type> <payload>`, the CRC taken over
 * everything from the 0xFF on. Types: login (0x00), command (0x01), server message (0x02).
 * Text is UTF-8 (real servers send player names that way), decoded only after reassembly.
 */

export const HEADER_SIZE = 8; // 'B' 'E' crc(4) 0xFF type
const MAGIC_B = 0x42;
const MAGIC_E = 0x45;
const SEPARATOR = 0xff;

export const PacketType = { Login: 0x00, Command: 0x01, Message: 0x02 } as const;

/** The spec's limit on parts of one answer: the count travels in one byte. */
export const MAX_PARTS = 255;
/** Largest UDP payload over IPv4. */
export const MAX_DATAGRAM = 65507;

export const nextSequence = (seq: number) => (seq + 1) & 0xff;

function frame(type: number, payload: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from([SEPARATOR, type]), payload]);
  const head = Buffer.alloc(6);
  head[0] = MAGIC_B;
  head[1] = MAGIC_E;
  head.writeUInt32LE(crc32(body) >>> 0, 2);
  const packet = Buffer.concat([head, body]);
  if (packet.length > MAX_DATAGRAM) throw new RangeError(`BattlEye packet of ${packet.length} bytes exceeds one datagram`);
  return packet;
}

const seqByte = (seq: number) => {
  if (!Number.isInteger(seq) || seq < 0 || seq > 255) throw new RangeError(`sequence number out of range: ${seq}`);
  return seq;
};

// --- encoding -------------------------------------------------------------------------------

export const encodeLogin = (password: string) => frame(PacketType.Login, Buffer.from(password, 'utf8'));
export const encodeLoginResult = (ok: boolean) => frame(PacketType.Login, Buffer.from([ok ? 1 : 0]));
/** A command; the empty command is the keep-alive. */
export const encodeCommand = (seq: number, command: string) =>
  frame(PacketType.Command, Buffer.concat([Buffer.from([seqByte(seq)]), Buffer.from(command, 'utf8')]));
export const encodeMessage = (seq: number, message: string) =>
  frame(PacketType.Message, Buffer.concat([Buffer.from([seqByte(seq)]), Buffer.from(message, 'utf8')]));
export const encodeMessageAck = (seq: number) => frame(PacketType.Message, Buffer.from([seqByte(seq)]));

/** One answer packet; `part` adds the multi-part header `0x00 <total> <index>`. */
export function encodeReply(seq: number, body: Buffer, part?: { total: number; index: number }): Buffer {
  const head = part ? [seqByte(seq), 0x00, part.total, part.index] : [seqByte(seq)];
  return frame(PacketType.Command, Buffer.concat([Buffer.from(head), body]));
}

/**
 * An answer as the datagrams that carry it: one packet when the body fits `chunkSize` bytes,
 * otherwise up to 255 parts. A body whose first byte is 0x00 is always split, since a
 * single-packet answer starting with 0x00 would read as a part header.
 */
export function encodeReplyParts(seq: number, text: string, chunkSize = 1024): Buffer[] {
  const body = Buffer.from(text, 'utf8');
  if (body.length <= chunkSize && body[0] !== 0x00) return [encodeReply(seq, body)];
  const total = Math.max(1, Math.ceil(body.length / chunkSize));
  if (total > MAX_PARTS) throw new RangeError(`answer of ${body.length} bytes needs ${total} parts; the protocol allows ${MAX_PARTS}`);
  return Array.from({ length: total }, (_, index) =>
    encodeReply(seq, body.subarray(index * chunkSize, (index + 1) * chunkSize), { total, index }),
  );
}

// --- decoding -------------------------------------------------------------------------------

export type ClientPacket =
  { type: 'login'; password: string } | { type: 'command'; seq: number; command: string } | { type: 'message-ack'; seq: number };

export type ServerPacket =
  | { type: 'login-result'; ok: boolean }
  | { type: 'reply'; seq: number; body: Buffer; part: { total: number; index: number } | null }
  | { type: 'message'; seq: number; message: string };

/** Header and checksum check: the `type` byte and payload of a valid datagram, or null for one to drop. */
function unframe(data: Buffer): { type: number; payload: Buffer } | null {
  if (data.length < HEADER_SIZE || data[0] !== MAGIC_B || data[1] !== MAGIC_E || data[6] !== SEPARATOR) return null;
  if (data.readUInt32LE(2) !== crc32(data.subarray(6)) >>> 0) return null;
  return { type: data[7], payload: data.subarray(HEADER_SIZE) };
}

/** A datagram sent by a client, or null when it is not a valid one (real servers drop those silently). */
export function decodeClientPacket(data: Buffer): ClientPacket | null {
  const packet = unframe(data);
  if (!packet) return null;
  const { type, payload } = packet;
  if (type === PacketType.Login) return { type: 'login', password: payload.toString('utf8') };
  if (payload.length < 1) return null;
  if (type === PacketType.Command) return { type: 'command', seq: payload[0], command: payload.subarray(1).toString('utf8') };
  if (type === PacketType.Message && payload.length === 1) return { type: 'message-ack', seq: payload[0] };
  return null;
}

/** A datagram sent by a server, or null when it is not a valid one. */
export function decodeServerPacket(data: Buffer): ServerPacket | null {
  const packet = unframe(data);
  if (!packet) return null;
  const { type, payload } = packet;
  if (type === PacketType.Login) return payload.length === 1 && payload[0] <= 1 ? { type: 'login-result', ok: payload[0] === 1 } : null;
  if (payload.length < 1) return null;
  const seq = payload[0];
  if (type === PacketType.Message) return { type: 'message', seq, message: payload.subarray(1).toString('utf8') };
  if (type !== PacketType.Command) return null;
  if (payload.length > 1 && payload[1] === 0x00) {
    if (payload.length < 4) return null;
    const total = payload[2];
    const index = payload[3];
    if (total < 1 || index >= total) return null;
    return { type: 'reply', seq, body: Buffer.from(payload.subarray(4)), part: { total, index } };
  }
  return { type: 'reply', seq, body: Buffer.from(payload.subarray(1)), part: null };
}
