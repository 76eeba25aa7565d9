import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SERVER = join(ROOT, 'packages/server/src');
const WEB = join(ROOT, 'packages/web/src');

/**
 * The one place a game may be named outside the adapters: the default game type of a server created
 * without one (`GARRISON_DEFAULT_GAME`), as one value in its setting's file.
 */
const DEFAULT_GAME = { file: 'packages/server/src/servers/settings.ts', text: "defaultGameType: 'gamea'" };

/**
 * What only a game's adapter knows, each with why it is a game's: the games' names, the first game's
 * mission and log files, its remote-admin protocol, its mission command and folder. Case-insensitive,
 * comments included: a comment that explains one game's rule is that game's adapter's to keep.
 */
const GAME_WORDS: readonly [word: string, whose: string][] = [
  ['gamea', 'a game name'],
  ['gameb', 'a game name'],
  ['.pbo', "the first game's mission files"],
  ['.rpt', "the first game's log files"],
  ['battleye', "the first game's remote-admin protocol"],
  ['#mission', "the first game's command to play a mission"],
  ['mpmissions', "the first game's mission folder"],
];
/** The server names no part of a game's mission names either (the console shows the parts a response carries). */
const SERVER_WORDS: readonly [word: string, whose: string][] = [...GAME_WORDS, ['terrain', "the first game's mission name part"]];
/** A game's identity rule: the first game's 32-hex-digit GUID, in any spelling of its pattern. */
const GUID_RULE = /\[(?:0-9a-f|a-f0-9|0-9a-fA-F|a-fA-F0-9|\\da-f)\]\{32\}/i;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : /\.(?:tsx?|css|html|json)$/.test(entry.name) ? [path] : [];
  });
}

/** Each file of `dir` with the game words it holds, as `file:line: word (whose)`; the default game's one value left out. */
function offenders(dir: string, words: readonly [string, string][]): string[] {
  const files = sources(dir);
  assert.ok(files.length > 20, `found only ${files.length} sources under ${dir}`);
  return files.flatMap((path) => {
    const file = relative(ROOT, path);
    let text = readFileSync(path, 'utf8');
    if (file === DEFAULT_GAME.file) {
      assert.equal(text.split(DEFAULT_GAME.text).length, 2, `${file} names the default game once, as ${DEFAULT_GAME.text}`);
      text = text.replace(DEFAULT_GAME.text, '');
    }
    return text.split('\n').flatMap((line, i) => {
      const lower = line.toLowerCase();
      const found = words.filter(([word]) => lower.includes(word)).map(([word, whose]) => `${file}:${i + 1}: ${word} (${whose})`);
      return GUID_RULE.test(line) ? [...found, `${file}:${i + 1}: a 32-hex-digit GUID rule (the first game's identity)`] : found;
    });
  });
}

describe('the server and the console name no game: adapters declare what is a game’s', () => {
  it('packages/server/src: no game name, file type, protocol or identity rule (but the default game setting)', () => {
    assert.deepEqual(offenders(SERVER, SERVER_WORDS), []);
  });

  it('packages/web/src: no game name, file type, protocol or identity rule', () => {
    assert.deepEqual(offenders(WEB, GAME_WORDS), []);
  });

  it('sees what it looks for: a game word and a GUID rule are found, the default game is allowed once', () => {
    const words = (line: string) => GAME_WORDS.filter(([word]) => line.toLowerCase().includes(word)).map(([word]) => word);
    assert.deepEqual(words('const exe = "GameAServer_x64.exe"; // BattlEye, mission.Altis.PBO'), ['gamea', '.pbo', 'battleye']);
    assert.ok(GUID_RULE.test('const GUID = /^[0-9a-f]{32}$/i;'));
    assert.ok(!GUID_RULE.test('const KEY = /^[0-9a-f]{64}$/;'));
    const settings = readFileSync(join(ROOT, DEFAULT_GAME.file), 'utf8');
    assert.match(settings, /env: 'GARRISON_DEFAULT_GAME'/, 'the default game is the GARRISON_DEFAULT_GAME setting');
  });
});
