import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import gamea, { readCfg } from '@garrison/adapter-gamea';
import { sectionDefaults, type ConfigValues, type ImportDraft } from '@garrison/core';
import { ImportFiles } from '@garrison/server/import-files';
import { installation, type Installation } from './import-keys/generate.js';
import { unaccountedBattlEye, unaccountedCfg, unaccountedCommandLine } from './import-keys/accounting.js';

const generator = gamea.capabilities.config_generator;
const EXE = 'gameaserver_x64.exe';

/** The installation on disk, read by the importer as the service has it read (inside the folder only). */
async function imported(inst: Installation): Promise<{ dir: string; draft: ImportDraft }> {
  const dir = await mkdtemp(join(tmpdir(), 'garrison-import-keys-'));
  await writeFile(join(dir, EXE), '');
  for (const mod of inst.mods) await mkdir(join(dir, mod));
  for (const [name, text] of Object.entries(inst.files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  const draft = await generator.importer.read({ exe_path: join(dir, EXE), command_line: inst.commandLine }, new ImportFiles(dir));
  return { dir, draft };
}

/** What the service stores (each section over its defaults; extra lines that do not check are left out) and what it renders. */
function rendered(draft: ImportDraft, rconPort: number): Record<string, string> {
  const config: ConfigValues = {};
  for (const [name, schema] of Object.entries(generator.sections)) {
    const merged = { ...sectionDefaults(schema), ...(draft.sections[name] ?? {}) };
    if (generator.checkSection?.(name, merged)) delete merged.extra_lines;
    config[name] = merged;
  }
  const ctx = {
    server: { id: 1, name: 'x', exe_path: '/x/gameaserver_x64.exe', game_port: draft.game_port ?? 2302, rcon_port: rconPort },
    serverDir: '/data/servers/1',
    exeDir: '/x',
  };
  return Object.fromEntries(generator.render(config, ctx).map((f) => [f.label, f.content]));
}

/** Every key of every file of `inst`, accounted for in what the importer made of it: the problems found. */
function unaccounted(inst: Installation, dir: string, draft: ImportDraft): string[] {
  const rconPort = draft.rcon_port ?? (draft.game_port ?? 2302) + 3;
  const files = rendered(draft, rconPort);
  const include = (name: string, from: string) => ({
    file: join(dirname(from), name),
    text: readFileSync(join(dirname(from), name), 'utf8'),
  });
  const read = (name: string) => readCfg(inst.files[name], join(dir, name), include);
  const problems = [
    ...unaccountedCfg(read('server.cfg'), files['server.cfg'], draft.refused, draft.rotation),
    ...unaccountedCfg(read('basic.cfg'), files['basic.cfg'], draft.refused),
    ...unaccountedCfg(read('prof/Users/admin/admin.GameaProfile'), files['server.GameaProfile'], draft.refused),
  ];
  const be = Object.keys(inst.files).find((f) => /beserver/i.test(f))!;
  problems.push(...unaccountedBattlEye(inst.files[be], join(dir, be), files['BEServer_x64.cfg'], rconPort, draft.refused));
  const plan = {
    server: { game_port: draft.game_port ?? -1 },
    files: draft.files,
    mods: draft.mods,
    sections: draft.sections,
    refused: draft.refused,
  };
  problems.push(...unaccountedCommandLine(inst.commandLine, plan));
  return problems;
}

/**
 * Issue 30, §1: for every key of every input file (server.cfg with an #include, basic.cfg, the profile,
 * BattlEye's config, the command line), the import has it with its exact value — in a section field, as
 * a line of the file Garrison writes — or in `refused` with a reason; never changed, never absent.
 */
describe('import: every key of the original, kept or refused with its reason', () => {
  it('holds for generated installations in the forms people write', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(installation, async (inst) => {
        const { dir, draft } = await imported(inst);
        try {
          const problems = unaccounted(inst, dir, draft);
          assert.deepEqual(problems, [], `${problems.join('\n')}\n--- ${JSON.stringify(inst, null, 1)}`);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }),
      {
        numRuns: Number(process.env.IMPORT_KEYS_RUNS ?? 150),
        seed: process.env.IMPORT_KEYS_SEED ? Number(process.env.IMPORT_KEYS_SEED) : undefined,
      },
    );
  });
});
