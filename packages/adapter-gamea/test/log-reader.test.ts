import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { logReader } from '../src/index.js';

/**
 * The end of a real `.rpt` in each `timeStampFormat`: the game writes `Error:`, `Warning:` and
 * `ErrorMessage:` lines without a time even where the other lines have one, and every line without
 * one under "none". Each entry: [the message as written, its level].
 */
const MESSAGES: [string, string][] = [
  ['Mission rpt-x read from bank.', 'info'],
  ['Error: Object(23 : 706) not found', 'error'],
  ['Warning: Convex component 12 not found in a3\\structures_f\\house.p3d:0', 'warning'],
  ['Error in expression <if (_x > 0) then {>', 'error'],
  ['  Error position: <_x > 0) then {>', 'error'],
  ['  Error Undefined variable in expression: _x', 'error'],
  ['Application terminated intentionally', 'info'],
  ["ErrorMessage: File mpmissions\\__cur_mp.Altis\\description.ext, line 61: '/CfgRemoteExec/': Missing '}'", 'error'],
  ['Debug: world loaded', 'debug'],
  ['Player Error (76.108.91.78:2304) connected', 'info'],
];

/** Which of MESSAGES the game writes without a time in a log that has times. */
const UNTIMED_IN_A_TIMED_LOG = new Set([1, 2, 7, 8]);

const read = (lines: string[]) => {
  const reader = logReader();
  return lines.map((l) => reader(l));
};

describe('gamea log reader: lines without a time stamp', () => {
  for (const [format, time] of [
    ['short', ' 3:45:44 '],
    ['short, two-digit hour', '17:24:02 '],
    ['full', '2021/09/29, 11:11:19 '],
  ] as const) {
    it(`gives a line that begins with a level word its own entry in a ${format} log (CRLF)`, () => {
      const lines = MESSAGES.map(([m], i) => `${UNTIMED_IN_A_TIMED_LOG.has(i) ? '' : time}${m}\r`);
      const entries = read(lines);
      assert.deepEqual(
        entries.map((e) => e?.message),
        MESSAGES.map(([m]) => m),
        'the message is the text after the time, without the CR',
      );
      assert.deepEqual(
        entries.map((e) => e?.level),
        MESSAGES.map(([, l]) => l),
      );
    });
  }

  it('keeps the time of the entry above for an entry the game wrote without one, in a full log', () => {
    const [, error, after] = read([
      '2021/09/29, 11:11:19 Application terminated intentionally',
      "ErrorMessage: File x.ext, line 61: Missing '}'",
      'and the rest of that message',
    ]);
    assert.deepEqual(error, {
      level: 'error',
      message: "ErrorMessage: File x.ext, line 61: Missing '}'",
      timestamp: new Date(2021, 8, 29, 11, 11, 19),
    });
    assert.deepEqual(
      after,
      { level: 'error', message: 'and the rest of that message', timestamp: new Date(2021, 8, 29, 11, 11, 19) },
      'a plain line continues it',
    );
  });

  it(
    'reads a log without any time (timeStampFormat none): ' + 'level words start entries, indented lines continue, plain lines stand alone',
    () => {
      const lines = [
        '=====================================================================',
        'Exe timestamp: 2021/09/29 10:00:00',
        ...MESSAGES.map(([m]) => m),
        "Warning Message: No entry 'bin\\config.bin/CfgVehicles.scope'.",
        '  <texture name="x"/>',
        'Game started.',
        'Игрок Иван: привет 👋',
      ].map((l) => `${l}\r`);
      assert.deepEqual(
        read(lines).map((e) => e?.level),
        ['info', 'info', ...MESSAGES.map(([, l]) => l), 'warning', 'warning', 'info', 'info'],
      );
      assert.ok(
        read(lines).every((e) => e?.timestamp === undefined),
        'no line carries a time: each is read when it comes',
      );
    },
  );

  it('still continues the entry above with indented and plain lines in a timed log', () => {
    const entries = read([
      ' 3:45:44 Warning Message: texture missing',
      '  <texture name="x"/>',
      'File \\x\\cba\\addons\\xeh\\fnc_init.sqf [CBA_fnc_init]..., line 3',
      'Errors: none; Warnings disabled',
      ' 3:45:45 Game started.',
      '  indented after info',
    ]);
    assert.deepEqual(
      entries.map((e) => e?.level),
      ['warning', 'warning', 'warning', 'warning', 'info', 'info'],
    );
  });
});
