import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  ifMissing,
  type AdapterDefinition,
  type BanEntry,
  type ConfigValues,
  type IdentityKind,
  type LivePlayer,
  type PlayerEvent,
  type PlayerIdentity,
  type RemoteAdmin,
  type RemoteAdminSession,
  type RunCommand,
  type ServerContext,
} from '@garrison/core';
import { freeGamePorts } from '../suite/ports.js';
import { startProcess, type TestProcess } from '../suite/processes.js';
import { waitFor } from '../suite/waiting.js';

/**
 * How the suite runs the game's fake dedicated server, for the remote-admin part: the adapter's own test
 * passes it. The suite does what the service does with it: writes the adapter's rendered config files,
 * starts the executable with the adapter's launch arguments, waits for the readiness probe and connects
 * with the target the adapter reads from the config; then it drives the adapter's operations.
 */
export interface RemoteAdminFake {
  /**
   * Installs the fake into `dir` (an empty folder: the server's installation, `exeDir`) and returns the
   * path of the executable to start. Whatever the fake needs there besides (a map to load, mission
   * files for the long answer) is made here too.
   */
  install(dir: string): Promise<string>;
  /** Environment of the fake's process, over the test process's own (a pid to watch, a shorter boot). */
  env?: Record<string, string>;
  /** Config values set over a new server's defaults and fresh credentials (section → field → value). */
  config?: ConfigValues;
  /** Makes a player join the running game: a test command of the fake, sent through `run` (`testkit.join …`). */
  join(run: RunCommand, player: { name: string; index: number }): Promise<void>;
  /** Whether the running game holds a ban of `id` now: its ban list as it answers it, or a join it refuses. */
  holdsBan(run: RunCommand, id: PlayerIdentity): Promise<boolean>;
  /**
   * A command whose answer spans several packets of the game's protocol (more than 4096 characters), and
   * that whole answer as the fake gives it: it must arrive whole and in order.
   */
  longAnswer: { command: string; answer: string };
}

const SETTLE_MS = 15_000;

/** Names of players the suite makes join: plain words every game takes. */
const playerName = (index: number) => `Conformance${index + 1}`;

interface Running {
  ctx: ServerContext;
  process: TestProcess;
  session: RemoteAdminSession;
  run: RunCommand;
  messages: string[];
}

async function startFake(adapter: AdapterDefinition, fake: RemoteAdminFake, config: ConfigValues, root: string): Promise<Running> {
  const exeDir = join(root, 'game');
  await mkdir(exeDir, { recursive: true });
  const exePath = await fake.install(exeDir);
  const { game_port, rcon_port } = await freeGamePorts();
  const ctx: ServerContext = {
    server: { id: 1, name: 'Conformance', exe_path: exePath, game_port, rcon_port, headless_clients: 0 },
    serverDir: join(root, 'data', 'servers', '1'),
    exeDir,
  };
  for (const file of adapter.capabilities.config_generator?.render(config, ctx) ?? []) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.content);
  }
  const processConfig = adapter.capabilities.process_config;
  const args = processConfig?.launchArguments(config, ctx, { mods: [] }) ?? [];
  const child = startProcess(exePath, args, { cwd: exeDir, env: { ...process.env, ...fake.env }, detached: true });
  const alive = () => {
    if (child.child.exitCode !== null) throw new Error(`the fake exited (${child.child.exitCode}): ${child.stderr.join('')}`);
  };
  try {
    const remote = adapter.capabilities.remote_admin!;
    const target = remote.target(config, ctx);
    assert.ok(target, "remote_admin.target: a target from a new server's config (with the fake's config values)");
    if (processConfig?.isReady) {
      await waitFor(async () => (alive(), processConfig.isReady!(config, ctx)), { timeoutMs: 60_000, intervalMs: 100, what: 'isReady' });
    }
    const session = await waitFor(async () => (alive(), remote.connect(target)), { timeoutMs: 30_000, what: 'remote_admin.connect' });
    const messages: string[] = [];
    session.onMessage((m) => messages.push(m));
    return { ctx, process: child, session, run: (text) => session.command(text), messages };
  } catch (err) {
    await child.kill(); // a fake that never came up is not left running
    throw err;
  }
}

/** A ban's value of each declared kind: the player's identity, his address, or the kind's example. */
function valueOf(kind: IdentityKind, player: LivePlayer): string {
  if (player.id?.kind === kind.kind) return player.id.value;
  if (kind.address && player.ip) return player.ip;
  return kind.normalize(kind.example);
}

async function rewrite(path: string, change: (lines: string[]) => string[]): Promise<void> {
  const text = await readFile(path, 'utf8').catch(ifMissing(''));
  const lines = text.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(
    path,
    change(lines)
      .map((l) => `${l}\n`)
      .join(''),
  );
}

/** The remote-admin part of the conformance suite: the adapter's operations against the game's fake, over the real protocol. */
export function remoteAdminConformance(adapter: AdapterDefinition, remote: RemoteAdmin, fake: RemoteAdminFake, config: ConfigValues): void {
  describe('remote_admin against the game’s fake', () => {
    let root = '';
    let game: Running;
    const players = () => remote.listPlayers(game.run);
    const joined = async (index: number) => {
      await fake.join(game.run, { name: playerName(index), index });
      return waitFor(async () => (await players()).find((p) => p.name === playerName(index) && p.id !== null), {
        timeoutMs: SETTLE_MS,
        what: `${playerName(index)} in listPlayers, with his identity`,
      });
    };

    before(async () => {
      root = await mkdtemp(join(tmpdir(), 'garrison-conformance-'));
      game = await startFake(adapter, fake, config, root);
    });
    after(async () => {
      try {
        await game?.session.close();
      } finally {
        await game?.process.kill();
        await rm(root, { recursive: true, force: true });
      }
    });

    it('connects with the target its config gives, and lists no players on an empty server', async () => {
      assert.deepEqual(await players(), []);
    });

    it('lists a player who joined, with an identity of a kind it declares (and reads the join messages it parses)', async () => {
      const player = await joined(0);
      assert.match(player.slot_id, /^\S+$/);
      assert.ok(Number.isInteger(player.ping));
      const kind = adapter.identities?.find((k) => k.kind === player.id!.kind);
      assert.ok(kind, `${player.id!.kind} is a declared identity kind`);
      assert.equal(kind.problem(player.id!.value), null);
      assert.equal(kind.normalize(player.id!.value), player.id!.value, 'the listed identity is normalized');
      if (!remote.parsePlayerEvent) return;
      const events = () => game.messages.map((m) => remote.parsePlayerEvent!(m)).filter((e): e is PlayerEvent => e !== null);
      await waitFor(() => events().some((e) => e.kind === 'joined' && e.name === player.name), { what: 'a joined message' });
      const identified = events().find((e) => e.kind === 'identified' && e.name === player.name);
      if (identified?.kind === 'identified') assert.deepEqual(identified.id, player.id);
    });

    it('kicks a player by slot', { skip: !remote.kick && 'no kick' }, async () => {
      const player = await joined(1);
      await remote.kick!(game.run, player.slot_id, 'conformance kick');
      await waitFor(async () => !(await players()).some((p) => p.name === player.name), { what: 'the kicked player gone' });
    });

    it('bans each identity kind it declares through its ban file, and the running game holds the ban', async (t) => {
      const manager = adapter.capabilities.ban_manager;
      if (!manager) return t.skip('no ban_manager');
      const player = await joined(2);
      for (const kind of adapter.identities ?? []) {
        const id = { kind: kind.kind, value: valueOf(kind, player) };
        const ban: BanEntry = { id, reason: 'conformance ban', expires_at: null };
        const path = manager.banFilePath(game.ctx, kind.kind);
        const line = manager.formatBanLine(ban);
        await rewrite(path, (lines) => [...lines, line]);
        if (!remote.ban) continue; // the game reads the file at its next start
        await remote.ban(game.run, ban, [ban]);
        const holds = (what: string) => waitFor(() => fake.holdsBan(game.run, id), { timeoutMs: SETTLE_MS, what });
        await holds(`the game holding the ${kind.kind} ban`);
        // A second, timed ban of the same identity: the game goes on holding one while the file holds one.
        const timed: BanEntry = { id, reason: 'conformance timed ban', expires_at: new Date(Date.now() + 3_600_000) };
        const timedLine = manager.formatBanLine(timed);
        await rewrite(path, (lines) => [...lines, timedLine]);
        await remote.ban(game.run, timed, [ban, timed]);
        await holds(`the game holding the ${kind.kind} bans`);
        await rewrite(path, (lines) => lines.filter((l) => l !== line));
        if (!remote.unban) continue;
        await remote.unban(game.run, id, [timed]);
        await holds(`the game holding the timed ${kind.kind} ban the file still has`);
        await rewrite(path, (lines) => lines.filter((l) => l !== timedLine));
        await remote.unban(game.run, id, []);
        await waitFor(async () => !(await fake.holdsBan(game.run, id)), { timeoutMs: SETTLE_MS, what: `the ${kind.kind} ban lifted` });
      }
    });

    it('says something to every player', { skip: !remote.say && 'no say' }, async () => {
      await remote.say!(game.run, 'Conformance says hello');
    });

    it('runs a command whose answer spans several packets, whole and in order', async () => {
      assert.ok(fake.longAnswer.answer.length > 4096, 'longAnswer: an answer of more than 4096 characters');
      const answer = await game.run(fake.longAnswer.command);
      assert.equal(answer.length, fake.longAnswer.answer.length);
      assert.ok(answer === fake.longAnswer.answer, 'the answer as the fake gave it');
    });

    it('shuts the game down', { skip: !remote.shutdown && 'no shutdown (a stop sends SIGTERM)' }, async () => {
      await remote.shutdown!(game.run);
      await waitFor(() => game.process.child.exitCode !== null || game.process.child.signalCode !== null, {
        timeoutMs: SETTLE_MS,
        what: 'the game gone after shutdown',
      });
    });
  });
}
