import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * What only an adapter may say: a game's name, its identity, mission and log words, its anti-cheat. The
 * API's own field `guid` (the first game's contract) is allowed; its wording `GUID` is not.
 */
const GAME_WORDS: readonly (readonly [RegExp, string])[] = [
  [/gamea/i, 'a game name'],
  [/gameb/i, 'a game name'],
  [/\bGUID\b/, "a game's identity kind (the identity kinds' labels come from GET /games/{game})"],
  [/\.pbo\b/i, "a game's mission extension (GET /games/{game}: missions.extension)"],
  [/\.bsp\b/i, "a game's mission extension (GET /games/{game}: missions.extension)"],
  [/\brpt\b/i, "a game's log stream"],
  [/battl?eye/i, "a game's anti-cheat (words come from GET /games/{game}: presentation)"],
  [/steam ?id/i, "a game's identity kind"],
  [/terrain/i, "a part of a game's mission name (the parts come from the mission list)"],
  [/difficult/i, "a game's rotation option (rotation options come from GET /games/{game})"],
  // `(?<![-\w])`: a font's `SFMono-Regular` is no difficulty.
  [/\b(Recruit|Veteran)\b|(?<![-\w])Regular\b/, "a game's difficulty (rotation options come from GET /games/{game})"],
];

/** Every file under `dir`, by its path. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name));
}

/** Every line of the console's source that names a game or one of its rules, as `file:line: why: the line`. */
async function gameWordsIn(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const file of (await filesUnder(root)).sort()) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.forEach((line, index) => {
      for (const [pattern, why] of GAME_WORDS) {
        if (pattern.test(line)) found.push(`${relative(root, file)}:${index + 1}: ${why}: ${line.trim()}`);
      }
    });
  }
  return found;
}

describe('the console is game-neutral', () => {
  it('names no game and no game rule in packages/web/src: everything game-specific comes from GET /games/{game}', async () => {
    const found = await gameWordsIn(SRC);
    assert.deepEqual(found, [], `packages/web/src names a game or its rule:\n${found.join('\n')}`);
  });

  it('finds a game word, naming the file and the line', async () => {
    // The check above must be able to fail: run it over a line that has one.
    const dir = await mkdtemp(join(tmpdir(), 'game-neutral-'));
    try {
      await writeFile(join(dir, 'tab.tsx'), "const a = 1;\nconst accept = '.pbo';\nfont: 'SFMono-Regular';\n");
      assert.deepEqual(await gameWordsIn(dir), [
        "tab.tsx:2: a game's mission extension (GET /games/{game}: missions.extension): const accept = '.pbo';",
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
