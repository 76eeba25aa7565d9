import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeClientPacket,
  decodeServerPacket,
  encodeCommand,
  encodeLogin,
  encodeLoginResult,
  encodeMessage,
  encodeMessageAck,
  encodeReply,
  encodeReplyParts,
  nextSequence,
  PartCollector,
} from '../src/index.js';

// Vectors written out from the protocol description (CRC32 LE over everything from 0xFF on).
const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const V = {
  login: hex('42 45 de 26 2d 52 ff 00 70 61 73 73 77 6f 72 64'), // "password"
  loginOk: hex('42 45 69 dd de 36 ff 00 01'),
  loginFail: hex('42 45 ff ed d9 41 ff 00 00'),
  keepAlive0: hex('42 45 be dc c2 58 ff 01 00'), // also the empty answer to seq 0
  players0: hex('42 45 f9 37 94 ae ff 01 00 70 6c 61 79 65 72 73'),
  part0of2: hex('42 45 43 e5 6f 73 ff 01 02 00 02 00 41 42'), // seq 2, "AB"
  part1of2: hex('42 45 c3 48 f8 a9 ff 01 02 00 02 01 43 44'), // seq 2, "CD"
  message0: hex('42 45 49 c0 05 3f ff 02 00 68 69'), // "hi"
  ack0: hex('42 45 7d 8f ef 73 ff 02 00'),
};

describe('BattlEye RCon codec', () => {
  it('encodes every packet type byte for byte', () => {
    assert.deepEqual(encodeLogin('password'), V.login);
    assert.deepEqual(encodeLoginResult(true), V.loginOk);
    assert.deepEqual(encodeLoginResult(false), V.loginFail);
    assert.deepEqual(encodeCommand(0, ''), V.keepAlive0);
    assert.deepEqual(encodeReply(0, Buffer.alloc(0)), V.keepAlive0);
    assert.deepEqual(encodeCommand(0, 'players'), V.players0);
    assert.deepEqual(encodeReply(2, Buffer.from('AB'), { total: 2, index: 0 }), V.part0of2);
    assert.deepEqual(encodeReply(2, Buffer.from('CD'), { total: 2, index: 1 }), V.part1of2);
    assert.deepEqual(encodeMessage(0, 'hi'), V.message0);
    assert.deepEqual(encodeMessageAck(0), V.ack0);
  });

  it('decodes what a client sends', () => {
    assert.deepEqual(decodeClientPacket(V.login), { type: 'login', password: 'password' });
    assert.deepEqual(decodeClientPacket(V.players0), { type: 'command', seq: 0, command: 'players' });
    assert.deepEqual(decodeClientPacket(V.keepAlive0), { type: 'command', seq: 0, command: '' });
    assert.deepEqual(decodeClientPacket(V.ack0), { type: 'message-ack', seq: 0 });
  });

  it('decodes what a server sends, including part headers', () => {
    assert.deepEqual(decodeServerPacket(V.loginOk), { type: 'login-result', ok: true });
    assert.deepEqual(decodeServerPacket(V.loginFail), { type: 'login-result', ok: false });
    assert.deepEqual(decodeServerPacket(V.keepAlive0), { type: 'reply', seq: 0, body: Buffer.alloc(0), part: null });
    assert.deepEqual(decodeServerPacket(V.part1of2), { type: 'reply', seq: 2, body: Buffer.from('CD'), part: { total: 2, index: 1 } });
    assert.deepEqual(decodeServerPacket(V.message0), { type: 'message', seq: 0, message: 'hi' });
  });

  it('drops datagrams with a bad magic, separator or checksum, or that are too short', () => {
    const corrupt = Buffer.from(V.players0);
    corrupt[corrupt.length - 1] ^= 0x01;
    const badMagic = Buffer.from(V.loginOk);
    badMagic[0] = 0x43;
    const badSep = Buffer.from(V.loginOk);
    badSep[6] = 0xfe;
    for (const data of [corrupt, badMagic, badSep, V.loginOk.subarray(0, 7), Buffer.alloc(0)]) {
      assert.equal(decodeServerPacket(data), null);
      assert.equal(decodeClientPacket(data), null);
    }
    assert.equal(decodeServerPacket(encodeReply(1, Buffer.from('x'), { total: 2, index: 2 })), null, 'index past total');
    assert.equal(decodeServerPacket(encodeReply(1, Buffer.from('x'), { total: 0, index: 0 })), null, 'zero parts');
  });

  it('wraps sequence numbers from 255 to 0', () => {
    assert.equal(nextSequence(0), 1);
    assert.equal(nextSequence(255), 0);
    assert.throws(() => encodeCommand(256, 'x'), RangeError);
  });

  it('splits long answers into indexed parts that reassemble in any order, UTF-8 intact', () => {
    const text = 'Spieler Ä ö ü ß '.repeat(40);
    const parts = encodeReplyParts(9, text, 64);
    assert.ok(parts.length > 1);
    const decoded = parts.map((p) => decodeServerPacket(p)!).filter((p) => p.type === 'reply');
    assert.ok(decoded.every((p) => p.part!.total === parts.length));
    const collector = new PartCollector();
    let whole: Buffer | null = null;
    for (const p of [...decoded].reverse()) whole = collector.add(p.part!, p.body) ?? whole;
    assert.equal(whole!.toString('utf8'), text);
    assert.equal(encodeReplyParts(9, 'short', 64).length, 1);
    assert.throws(() => encodeReplyParts(1, 'x'.repeat(256 * 4), 4), /255/);
  });
});
