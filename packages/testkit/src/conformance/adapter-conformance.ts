import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAbsolute, join } from 'node:path';
import {
  ApiError,
  Kind,
  TypeCompiler,
  adapterDefinitionProblem,
  sectionDefaults,
  steamDeclarationProblem,
  type AdapterDefinition,
  type ConfigValues,
  type ServerContext,
} from '@garrison/core';
import { remoteAdminConformance, type RemoteAdminFake } from './remote-admin-conformance.js';

export interface ConformanceOptions {
  /** A mission file name the game loads (mission_manager), e.g. `co10_Escape.Altis.pbo`. */
  validMissionFile?: string;
  /** Lines of the game's own output that parseLine must read (log_parser). */
  sampleLogLines?: string[];
  /** A file name of the game's log folder that is one of its logs (log_parser), e.g. `server.rpt`. */
  sampleLogFile?: string;
  /**
   * The game's fake dedicated server, to drive remote admin over the real protocol (connect, players,
   * kick, ban of every identity kind, say, a long answer, shutdown). Without it, that part is skipped.
   */
  remoteAdmin?: RemoteAdminFake;
}

const LOG_LEVELS = ['debug', 'info', 'warning', 'error'];
const ODD_LINES = ['', ' ', '\t', 'x'.repeat(10_000), '\u0000\u0001', 'ünïcödé ✓', '{"json": true}', '12:00:00 '];

/** A server as the service would describe it to the adapter, in a made-up folder. */
function context(): ServerContext {
  const root = '/srv/garrison-conformance';
  return {
    server: {
      id: 7,
      name: 'Conformance',
      exe_path: join(root, 'game', 'server.exe'),
      game_port: 2302,
      rcon_port: 2305,
      headless_clients: 0,
    },
    serverDir: join(root, 'data', 'servers', '7'),
    exeDir: join(root, 'game'),
  };
}

/** The config a new server gets: every section's defaults, then the generated credentials. */
function newServerConfig(adapter: AdapterDefinition): ConfigValues {
  const generator = adapter.capabilities.config_generator;
  if (!generator) return {};
  const config: ConfigValues = Object.fromEntries(
    Object.entries(generator.sections).map(([name, schema]) => [name, sectionDefaults(schema)]),
  );
  for (const [section, values] of Object.entries(generator.generateCredentials())) config[section] = { ...config[section], ...values };
  return config;
}

/**
 * The adapter conformance suite: what the service relies on from every adapter, as node:test tests.
 * An adapter package calls it from one of its own test files:
 *
 *   import { adapterConformance } from '@garrison/testkit';
 *   import adapter from '../src/index.js';
 *   adapterConformance(adapter, { validMissionFile: 'co10_Escape.Altis.pbo', remoteAdmin: { install, join, … } });
 */
export function adapterConformance(adapter: AdapterDefinition, options: ConformanceOptions = {}): void {
  const caps = adapter.capabilities;
  /** A capability keeps its state in a config field (the rotation, the enabled mods): that field must exist. */
  const assertConfigField = ({ section, field }: { section: string; field: string }) =>
    assert.ok(caps.config_generator?.sections[section]?.properties[field], `${section}.${field} is a config field`);
  const ctx = context();

  describe(`adapter conformance: ${adapter.identity?.game_type ?? 'unnamed adapter'}`, () => {
    it('is an adapter the service loads: this API version, a complete identity, complete capabilities', () => {
      // The loader's own check, from core: an adapter that passes here is one the service accepts.
      const problem = adapterDefinitionProblem(adapter);
      assert.equal(problem, null, problem ? `${problem.reason} (${problem.hint})` : '');
      assert.ok(adapter.identity.display_name.trim().length > 0, 'display_name');
      assert.match(adapter.identity.version, /^\d+\.\d+\.\d+/, 'version: semver');
    });

    if (adapter.steam !== undefined) {
      const steam = adapter.steam;
      it('steam: a well-formed declaration of its apps, branches and mod layout', () => {
        assert.equal(steamDeclarationProblem(steam), null, steamDeclarationProblem(steam) ?? '');
        if (steam.workshop_app_id !== null) assert.ok(caps.mod_manager, 'Workshop mods need a mod_manager: where mods go');
        const extension = steam.key_file_extension;
        for (const key of steam.protected_keys) assert.ok(extension && key.endsWith(extension), `${key}: a key file (${extension})`);
      });
    }

    if (caps.config_generator) {
      const generator = caps.config_generator;
      it('config_generator: closed sections whose defaults, with fresh credentials, pass their own schemas', () => {
        const config = newServerConfig(adapter);
        for (const [name, schema] of Object.entries(generator.sections)) {
          assert.equal(schema[Kind], 'Object', `${name} is an object schema`);
          assert.equal(schema.additionalProperties, false, `${name} refuses unknown fields`);
          const check = TypeCompiler.Compile(schema);
          assert.ok(
            check.Check(config[name]),
            `${name}: ${[...check.Errors(config[name])].map((e) => `${e.path} ${e.message}`).join('; ')}`,
          );
        }
        for (const [section, values] of Object.entries(generator.generateCredentials())) {
          assert.ok(generator.sections[section], `credentials for an unknown section ${section}`);
          for (const field of Object.keys(values))
            assert.ok(generator.sections[section].properties[field], `credential ${section}.${field} is a field`);
        }
        assert.notDeepEqual(generator.generateCredentials(), generator.generateCredentials(), 'credentials are fresh each time');
      });

      it("config_generator: renders deterministically, uniquely labelled files inside the server's folders", () => {
        const config = newServerConfig(adapter);
        const first = generator.render(config, ctx);
        assert.deepEqual(generator.render(structuredClone(config), ctx), first, 'the same config renders the same files');
        const labels = first.map((f) => f.label);
        assert.equal(new Set(labels).size, labels.length, 'labels are unique');
        for (const file of first) {
          assert.ok(isAbsolute(file.path), `${file.label}: an absolute path`);
          assert.ok(
            file.path.startsWith(ctx.serverDir + '/') || file.path.startsWith(ctx.exeDir + '/'),
            `${file.label} is written inside the server's folders`,
          );
          assert.equal(typeof file.content, 'string');
        }
        for (const label of generator.downloadable ?? []) assert.ok(labels.includes(label), `downloadable ${label} is rendered`);
      });
    }

    if (caps.process_config) {
      const processConfig = caps.process_config;
      it('process_config: plain executable names, and well-formed launch arguments', () => {
        assert.ok(processConfig.allowedExecutables.length > 0, 'at least one executable');
        for (const exe of processConfig.allowedExecutables) assert.match(exe, /^[^/\\\0]+$/, `${exe}: a file name, not a path`);
        const config = newServerConfig(adapter);
        const args = processConfig.launchArguments(config, ctx, { mods: [] });
        assert.ok(Array.isArray(args));
        for (const arg of args) {
          assert.equal(typeof arg, 'string');
          assert.ok(arg.length > 0, 'no empty argument');
          assert.doesNotMatch(arg, /[\0\r\n]/, `${JSON.stringify(arg)}: no NUL or line break`);
        }
        assert.deepEqual(processConfig.launchArguments(structuredClone(config), ctx, { mods: [] }), args, 'deterministic');
      });
    }

    if (caps.log_parser) {
      const parser = caps.log_parser;
      it('log_parser: a log folder, a yes or no for any file name, and any line read without throwing', () => {
        assert.ok(isAbsolute(parser.logDirectory(ctx)));
        for (const name of ['', 'x', 'readme.txt', '../up.log']) assert.equal(typeof parser.isLogFile(name), 'boolean', name);
        if (options.sampleLogFile) assert.equal(parser.isLogFile(options.sampleLogFile), true, options.sampleLogFile);
        for (const line of [...(options.sampleLogLines ?? []), ...ODD_LINES]) {
          const entry = parser.parseLine(line);
          if (entry === null) continue;
          assert.ok(LOG_LEVELS.includes(entry.level), `${JSON.stringify(line)}: level ${entry.level}`);
          assert.equal(typeof entry.message, 'string');
        }
        for (const line of options.sampleLogLines ?? []) assert.notEqual(parser.parseLine(line), null, `${JSON.stringify(line)} is read`);
      });
    }

    if (caps.mission_manager) {
      const missions = caps.mission_manager;
      it('mission_manager: reads a valid file name, refuses others with ADAPTER_ERROR, keeps its rotation in a config field', () => {
        assert.ok(isAbsolute(missions.missionDirectory(ctx)));
        assert.match(missions.missionExtension, /^\.[A-Za-z0-9]+$/);
        assert.ok(options.validMissionFile, 'pass validMissionFile: a mission file name the game loads');
        const parsed = missions.parseMissionFilename(options.validMissionFile);
        assert.ok(parsed.name, 'a name');
        for (const [part, value] of Object.entries(parsed.parts)) assert.equal(typeof value, 'string', `parts.${part}`);
        for (const bad of ['readme.txt', `nothing${missions.missionExtension}x`, '']) {
          assert.throws(
            () => missions.parseMissionFilename(bad),
            (err: unknown) => err instanceof ApiError && err.code === 'ADAPTER_ERROR',
            bad,
          );
        }
        assertConfigField(missions.rotation);
        const { schema, normalize } = missions.rotationOptions;
        assert.equal(schema[Kind], 'Object', 'rotationOptions.schema: an object schema');
        assert.equal(schema.additionalProperties, false, 'rotationOptions.schema refuses unknown options');
        const none = normalize({});
        assert.equal(typeof none, 'object', 'no options at all are options (each has its default)');
        assert.ok(
          Object.values(none).every((v) => typeof v === 'string'),
          'normalized options are strings',
        );
      });
    }

    if (caps.mod_manager) {
      const mods = caps.mod_manager;
      it('mod_manager: a mod folder, a yes or no for any name, and its enabled list in a config field', () => {
        assert.ok(isAbsolute(mods.modDirectory(ctx)));
        for (const name of ['@mod', 'mod', '', '..', 'a/b']) assert.equal(typeof mods.isModFolder(name), 'boolean');
        assertConfigField(mods.enabled);
      });
    }

    if (caps.ban_manager || caps.remote_admin) {
      it('identities: declared kinds, each with a label, an example it takes, and a rule it keeps', () => {
        const kinds = adapter.identities ?? [];
        assert.ok(kinds.length > 0, 'remote_admin and ban_manager need identities: the kinds a ban takes');
        assert.equal(new Set(kinds.map((k) => k.kind)).size, kinds.length, 'kinds are unique');
        for (const kind of kinds) {
          assert.match(kind.kind, /^[A-Z][A-Z0-9_]*$/, `${kind.kind}: upper case, as ban_type names it`);
          assert.ok(kind.label.trim(), `${kind.kind}: a label`);
          assert.equal(kind.problem(kind.example), null, `${kind.kind}: its example is one`);
          const value = kind.normalize(kind.example);
          // The console picks a value's kind by its pattern: the example, and its stored form, have the shape.
          if (kind.pattern !== undefined)
            for (const shaped of [kind.example, value])
              assert.match(shaped, new RegExp(kind.pattern), `${kind.kind}: ${shaped} fits its pattern`);
          assert.equal(kind.problem(value), null, `${kind.kind}: a normalized value is still one`);
          assert.equal(kind.normalize(value), value, `${kind.kind}: normalize is idempotent`);
          for (const bad of ['', 'not an identity !', '\u0000'])
            assert.equal(typeof kind.problem(bad), 'string', `${kind.kind} refuses ${JSON.stringify(bad)}`);
        }
      });
    }

    if (caps.ban_manager) {
      const bans = caps.ban_manager;
      it('ban_manager: a ban file for each identity kind, and each ban line it writes read back as the same ban', () => {
        const readAt = new Date('2026-01-01T00:00:00Z');
        const reasons = ['cheating', 'spam: ünïcode [tag]', ''];
        const expiries = [null, new Date('2030-01-01T00:00:00Z'), null];
        for (const kind of adapter.identities ?? []) {
          assert.ok(isAbsolute(bans.banFilePath(ctx, kind.kind)), `${kind.kind}: an absolute ban file path`);
          reasons.forEach((reason, i) => {
            const ban = { id: { kind: kind.kind, value: kind.normalize(kind.example) }, reason, expires_at: expiries[i] };
            const line = bans.formatBanLine(ban);
            assert.equal(line, bans.formatBanLine(structuredClone(ban)), 'deterministic');
            assert.doesNotMatch(line, /[\r\n]/, 'one line');
            const read = bans.parseBanLine(line, readAt);
            assert.ok(read, `read back: ${line}`);
            assert.deepEqual(read.id, ban.id, `${line}: the same identity, of the same kind`);
            // A format may keep no reason (a Source-engine ban list), and may write an expiry as minutes from reading.
            assert.ok(read.reason === ban.reason || read.reason === '', `${line}: the reason as written, or none`);
            assert.equal(read.expires_at === null, ban.expires_at === null, `${line}: permanent stays permanent, timed stays timed`);
            if (read.expires_at) assert.ok(read.expires_at > readAt, `${line}: a timed ban ends after the line is read`);
            assert.equal(bans.parseBanLine(line, new Date())?.key, read.key, 'the key does not depend on when the line is read');
          });
        }
        assert.equal(bans.parseBanLine('', readAt), null, 'an empty line is no ban');
      });
    }

    if (caps.remote_admin) {
      const remote = caps.remote_admin;
      it('remote_admin: a target from the config (or none), and the operations it has as functions', () => {
        const target = remote.target(newServerConfig(adapter), ctx);
        if (target) {
          assert.equal(typeof target.host, 'string');
          assert.ok(Number.isInteger(target.port) && target.port > 0 && target.port < 65536);
          // On the game port, the target's port is the server's game port; on its own, the server's rcon_port.
          assert.ok(remote.port === undefined || remote.port === 'own' || remote.port === 'game', 'port: own, game or absent');
          assert.equal(target.port, remote.port === 'game' ? ctx.server.game_port : ctx.server.rcon_port, 'the target port');
        }
        assert.equal(typeof remote.listPlayers, 'function');
        for (const op of ['kick', 'say', 'ban', 'unban', 'reloadBans', 'shutdown', 'playMission'] as const)
          assert.ok(remote[op] === undefined || typeof remote[op] === 'function', `${op}: a function or absent`);
      });
      if (options.remoteAdmin) {
        const config = newServerConfig(adapter);
        for (const [section, values] of Object.entries(options.remoteAdmin.config ?? {}))
          config[section] = { ...config[section], ...values };
        remoteAdminConformance(adapter, remote, options.remoteAdmin, config);
      } else {
        it('remote_admin against the game’s fake', { skip: 'pass options.remoteAdmin (the fake) to drive it' }, () => {});
      }
    }
  });
}
