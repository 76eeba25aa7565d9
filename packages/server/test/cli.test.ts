import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createTcpServer, type Server } from 'node:net';
import { cp, mkdtemp, readFile, rm, stat, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { freeGamePorts, freePort, installFakeGameaTemp, killAll, startProcess, waitFor, withDeadline } from '@garrison/testkit';
import { apiClient, freshMysqlDatabase } from '@garrison/testkit/harness';
import { SETTINGS } from '../src/settings.js';
import { COMMANDS } from '../src/cli/usage.js';
import { ADMIN_PASSWORD, onMysql, startHarness, withDatabase, type Harness } from './helpers.js';
import { CLI, cliEnv, garrison, listeningUrl, serveProcess } from './cli-run.js';

// Each test runs the command as processes, several times over: minutes, not seconds, on a loaded machine.
const SLOW = { timeout: 180_000 };

const ROOT = new URL('../../../', import.meta.url).pathname;

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const mode = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

describe('the garrison command', () => {
  after(() => killAll());

  it('prints help on stdout with exit 0: every command, every flag and every environment variable with its default', SLOW, async () => {
    const general = await garrison(['--help']);
    assert.equal(general.code, 0);
    assert.equal(general.stderr, '');
    for (const command of [
      'serve',
      'migrate',
      'admin reset-password',
      'admin rotate-jwt-secret',
      'users list',
      'users create',
      'servers list',
      'servers restart',
      'rcon',
    ])
      assert.match(general.stdout, new RegExp(`^  ${command} `, 'm'));
    assert.deepEqual(await garrison(['help']), general);

    const serve = await garrison(['help', 'serve']);
    assert.equal(serve.code, 0);
    for (const setting of SETTINGS) {
      assert.match(serve.stdout, new RegExp(`${setting.env} .*\\(default [^)]+\\)`), setting.env);
      if (setting.flag) assert.match(serve.stdout, new RegExp(`--${setting.flag} `), setting.flag);
    }
    assert.equal((await garrison(['serve', '--help'])).stdout, serve.stdout);
    const reset = await garrison(['help', 'admin', 'reset-password']);
    assert.equal(reset.code, 0);
    assert.match(reset.stdout, /--password-stdin/);

    const version = await garrison(['--version']);
    assert.equal(version.code, 0);
    const { version: expected } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(version.stdout.trim(), expected);
  });

  it('is documented: the README and docs/configuration.md name every command garrison --help lists', async () => {
    const docs = {
      README: await readFile(join(ROOT, 'README.md'), 'utf8'),
      'docs/configuration.md': await readFile(join(ROOT, 'docs/configuration.md'), 'utf8'),
    };
    // `users list` and `users create` are written `users list|create`; the servers commands `servers list|start|stop|restart`.
    const spelt = (command: string) => [
      command,
      command.replace(/^users (list|create)$/, 'users list|create'),
      command.replace(/^servers (list|start|stop|restart)$/, 'servers list|start|stop|restart'),
    ];
    for (const command of Object.keys(COMMANDS).filter((c) => c !== 'help')) {
      for (const [name, text] of Object.entries(docs))
        assert.ok(
          spelt(command).some((c) => text.includes(`\`${c}\``) || text.includes(`\`garrison ${c}\``)),
          `${name} names \`${command}\``,
        );
    }
  });

  it('is documented: docs/configuration.md lists every setting with its flag', SLOW, async () => {
    const doc = await readFile(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
    for (const setting of SETTINGS) {
      const row = doc.split('\n').find((l) => l.includes(`\`${setting.env}\``));
      assert.ok(row, `${setting.env} is documented`);
      if (setting.flag) assert.match(row, new RegExp(`\`--${setting.flag}\``), `${setting.env} with --${setting.flag}`);
    }
  });

  it('exits 2 on a bad command, flag or value, naming it and what is accepted', SLOW, async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['launch'], {}, /unknown command "launch"; the commands are serve, migrate/],
      [['serve', '--bogus'], {}, /'--bogus'.*accepts --port, --host, --data-dir, --database, --log-level, --log-format/],
      [['serve', '--port', 'eighty'], {}, /--port must be an integer from 0 to 65535, got "eighty"/],
      [
        ['serve'],
        { GARRISON_LOG_LEVEL: 'loud' },
        /GARRISON_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent; got "loud"/,
      ],
      [['serve', '--log-format', 'xml'], {}, /--log-format must be one of json, pretty; got "xml"/],
      [['serve'], { GARRISON_STOP_TIMEOUT_MS: '0' }, /GARRISON_STOP_TIMEOUT_MS must be an integer from 1/],
      [
        ['serve'],
        { GARRISON_TRUST_PROXY: '127.0.0.1, proxy.lan' },
        /GARRISON_TRUST_PROXY must be comma-separated addresses or CIDR ranges .*got "proxy\.lan"/,
      ],
      [['users', 'create', 'carol', '--role', 'owner'], {}, /--role must be viewer or admin; got "owner"/],
      [['users', 'list', 'extra'], {}, /unexpected argument "extra"/],
      [['help', 'nothing'], {}, /no command "nothing"/],
    ];
    for (const [args, env, message] of cases) {
      const run = await garrison(args, { env });
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
    }
  });

  describe('on a data dir and database', () => {
    let h: Harness;
    let flags: string[];
    before(async () => {
      h = await startHarness();
      flags = ['--data-dir', h.dataDir, ...(h.databaseUrl ? ['--database', h.databaseUrl] : [])];
    });
    after(() => h.close());

    it("creates, lists and resets users while the service runs, with the API's rules", SLOW, async () => {
      const created = await garrison(['users', 'create', 'carol', ...flags]);
      assert.equal(created.code, 0, created.stderr);
      const generated = /created viewer carol with password: (\S+)/.exec(created.stdout)?.[1];
      assert.ok(generated, created.stdout);
      assert.equal((await h.api('POST', '/auth/login', { body: { username: 'carol', password: generated } })).status, 200);

      const admin = await garrison(['users', 'create', 'dave', '--role', 'admin', '--password-stdin', ...flags], {
        input: 'dave-password-1\n',
      });
      assert.equal(admin.code, 0, admin.stderr);
      assert.doesNotMatch(admin.stdout, /dave-password-1/);
      const login = await h.api('POST', '/auth/login', { body: { username: 'dave', password: 'dave-password-1' } });
      assert.equal(login.body.data.user.role, 'admin');

      const list = await garrison(['users', 'list', '--json', ...flags]);
      assert.equal(list.code, 0, list.stderr);
      const users = JSON.parse(list.stdout) as { username: string; role: string }[];
      assert.deepEqual(
        users.filter((u) => ['carol', 'dave'].includes(u.username)).map((u) => [u.username, u.role]),
        [
          ['carol', 'viewer'],
          ['dave', 'admin'],
        ],
      );
      assert.ok(!list.stdout.includes('password'), 'no hashes listed');
      const table = await garrison(['users', 'list', ...flags]);
      assert.match(table.stdout, /^ID +USERNAME +ROLE/);
      assert.match(table.stdout, /\bcarol +viewer\b/);

      assert.equal((await garrison(['users', 'create', 'carol', ...flags])).code, 1, 'a taken name');
      assert.equal((await garrison(['users', 'create', 'x', ...flags])).code, 2, 'a name the API refuses');
      assert.equal(
        (await garrison(['users', 'create', 'erin', '--password-stdin', ...flags], { input: 'short\n' })).code,
        2,
        'a password the API refuses',
      );

      const reset = await garrison(['admin', 'reset-password', ...flags]);
      assert.equal(reset.code, 0, reset.stderr);
      const fresh = /new password of admin: (\S+)/.exec(reset.stdout)?.[1];
      assert.ok(fresh);
      assert.equal((await h.api('POST', '/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).status, 401);
      assert.equal((await h.api('POST', '/auth/login', { body: { username: 'admin', password: fresh } })).status, 200);
      const missing = await garrison(['admin', 'reset-password', 'nobody', ...flags]);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /there is no user "nobody"/);
    });

    it("copies Garrison's database while the service runs, checked, 0600; says what to use on MariaDB", SLOW, async () => {
      const target = join(h.dataDir, 'copy.db');
      const done = await garrison(['backup-db', target, ...flags]);
      if (onMysql) {
        assert.equal(done.code, 1);
        assert.match(done.stderr, /mariadb-dump --single-transaction/);
        return;
      }
      assert.equal(done.code, 0, done.stderr);
      assert.match(done.stdout, /integrity check ok/);
      assert.equal(await mode(target), '600');
      const copy = knexFactory({ client: 'better-sqlite3', connection: { filename: target }, useNullAsDefault: true });
      try {
        assert.ok(((await copy('users').count({ n: '*' }))[0].n as number) >= 2, 'the users are in the copy');
      } finally {
        await copy.destroy();
      }
      assert.deepEqual(
        (await readdir(h.dataDir)).filter((n) => n.endsWith('.tmp')),
        [],
        'no temporary file left',
      );
      assert.equal((await garrison(['backup-db', ...flags])).code, 2, 'the path is required');
    });

    it('imports an existing server: a dry run that writes nothing, then the import, while the service runs', SLOW, async () => {
      const fake = await installFakeGameaTemp();
      try {
        await cp(new URL('./fixtures/installation/', import.meta.url).pathname, fake.dir, { recursive: true });
        const { game_port, rcon_port } = await freeGamePorts();
        const script = join(fake.dir, 'start_server.bat');
        await writeFile(script, (await readFile(script, 'utf8')).replace('-port=2400', `-port=${game_port}`));
        const be = join(fake.dir, 'BattlEye', 'beserver_x64.cfg');
        await writeFile(be, (await readFile(be, 'utf8')).replace('RConPort 2402', `RConPort ${rcon_port}`));
        const args = ['import', '--exe', fake.exePath, '--command-line-file', script, '--name', 'From the CLI', ...flags];
        const count = async () => (await h.api('GET', '/servers', { token: h.adminToken })).body.data.length;
        const before = await count();

        const dry = await garrison([...args, '--dry-run']);
        assert.equal(dry.code, 0, dry.stderr);
        assert.match(dry.stdout, /^Dry run: nothing was written/);
        assert.match(dry.stdout, /Mods: @CBA_A3, @ace, @task_force_radio, @AdvancedUrbanRappelling \[server\]/);
        assert.match(dry.stdout, /Bans: 4 from /);
        assert.doesNotMatch(dry.stdout, /Sund4yRcon/, 'no secret in a dry run');
        assert.equal(await count(), before);
        const outside = await garrison([...args, '--config', '/etc/hostname', '--dry-run']);
        assert.equal(outside.code, 1);
        assert.match(outside.stderr, /outside the game folder/);

        const done = await garrison([...args, '--json']);
        assert.equal(done.code, 0, done.stderr);
        const plan = JSON.parse(done.stdout);
        assert.equal(plan.dry_run, false);
        assert.equal(plan.server.rcon_password, 'Sund4yRcon');
        const made = (await h.api('GET', `/servers/${plan.server.id}`, { token: h.adminToken })).body.data;
        assert.deepEqual([made.name, made.game_port, made.rcon_port], ['From the CLI', game_port, rcon_port]);

        const again = await garrison(args);
        assert.equal(again.code, 1);
        assert.match(
          again.stderr,
          /PORT_IN_USE/,
          "the same folder again: a second server on the installation, whose ports are the first one's",
        );
        assert.doesNotMatch(again.stderr, /Sund4yRcon|adm1nPass/);
        const other = await freeGamePorts();
        const moved = await garrison([...args, '--game-port', String(other.game_port), '--rcon-port', String(other.rcon_port), '--json']);
        assert.equal(moved.code, 0, moved.stderr);
        const second = (await h.api('GET', `/servers/${JSON.parse(moved.stdout).server.id}`, { token: h.adminToken })).body.data;
        assert.deepEqual([second.game_port, second.rcon_port], [other.game_port, other.rcon_port], 'the ports given on the command line');
        assert.equal((await garrison([...args, '--game-port', '80', '--dry-run'])).code, 2, 'a port below 1024 is a usage error');
        assert.equal((await garrison(['import', ...flags])).code, 2, '--exe is required');
      } finally {
        await fake.remove();
      }
    });

    it('rotates the signing secret: every session ends, and a token signed with the old secret is refused', SLOW, async () => {
      const secretFile = join(h.dataDir, 'jwt-secret');
      const oldSecret = (await readFile(secretFile, 'utf8')).trim();
      const user = await h.userToken('admin');
      assert.equal((await h.api('GET', '/auth/me', { token: user.token })).status, 200);
      const { sid } = JSON.parse(Buffer.from(user.token.split('.')[1], 'base64url').toString()) as { sid: string };
      // A user with two-factor sign-in: its secret is sealed with a key of the signing secret.
      const { Secret, TOTP } = await import('otpauth');
      const totpUser = await h.userToken('viewer');
      const setup = (await h.api('POST', '/auth/2fa/setup', { token: totpUser.token })).body.data as { secret: string };
      const code = (at: number) =>
        TOTP.generate({ secret: Secret.fromBase32(setup.secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });
      assert.equal((await h.api('POST', '/auth/2fa/enable', { token: totpUser.token, body: { code: code(Date.now()) } })).status, 200);
      // The Steam account's password and pending Guard code are sealed with a key of the signing secret too.
      const steamAccount = { username: 'rotate_bot', password: 'Rotate-Steam-1', guard_code: 'R0T8X' };
      assert.equal((await h.api('PUT', '/steam/account', { token: h.adminToken, body: steamAccount })).status, 200);

      const rotated = await garrison(['admin', 'rotate-jwt-secret', ...flags]);
      assert.equal(rotated.code, 0, rotated.stderr);
      assert.match(rotated.stdout, /sessions? ended/);
      const newSecret = (await readFile(secretFile, 'utf8')).trim();
      assert.notEqual(newSecret, oldSecret);
      assert.ok(newSecret.length >= 48);
      assert.equal(await mode(secretFile), '600');
      assert.doesNotMatch(rotated.stdout + rotated.stderr, new RegExp(newSecret), 'the secret in its file is not printed');
      assert.match(rotated.stdout, /the Steam account sealed with the new secret/);
      const { Sealer } = await import('../src/auth/sealing.js');
      const { STEAM_SEAL_PURPOSE } = await import('../src/steam/account/service.js');
      const sealed = await withDatabase(h, (knex) => knex('steam_account').first());
      const opener = new Sealer(newSecret, STEAM_SEAL_PURPOSE);
      assert.equal(opener.open(sealed.password_sealed), steamAccount.password);
      assert.equal(opener.open(sealed.guard_code_sealed), steamAccount.guard_code);

      // The service signs with the secret it read at start: a second instance on the same database with the
      // new secret stands for the restart (a data dir of its own: the running one holds its own).
      const { startServer } = await import('../src/app.js');
      const pino = (await import('pino')).default;
      const otherDir = await mkdtemp(join(tmpdir(), 'garrison-rotated-'));
      const restarted = await startServer({
        port: 0,
        dataDir: otherDir,
        databaseUrl: h.databaseUrl ?? `sqlite:${join(h.dataDir, 'garrison.db')}`,
        jwtSecret: newSecret,
        loginRateLimit: 0,
        rateLimit: 0,
        logger: pino({ level: 'silent' }),
      });
      try {
        const api = apiClient(restarted.url);
        assert.equal((await api('GET', '/auth/me', { token: user.token })).status, 401, 'the session ended');
        const { default: jwt } = await import('jsonwebtoken');
        const forged = jwt.sign({ username: user.username, role: 'admin', gen: 0, sid }, oldSecret, {
          subject: String(user.id),
          expiresIn: 600,
        });
        assert.equal((await api('GET', '/auth/me', { token: forged })).status, 401, 'the old secret signs nothing');
        const again = await api('POST', '/auth/login', { body: { username: user.username, password: user.password } });
        assert.equal(again.status, 200, 'signing in again works');
        assert.equal((await api('GET', '/auth/me', { token: again.body.data.access_token })).status, 200);
        // The two-factor secret was sealed anew: the user's app still signs them in.
        const first = (await api('POST', '/auth/login', { body: { username: totpUser.username, password: totpUser.password } })).body
          .data as { mfa_token: string };
        const second = await api('POST', '/auth/login/2fa', { body: { mfa_token: first.mfa_token, code: code(Date.now() + 30_000) } });
        assert.equal(second.status, 200, JSON.stringify(second.body));
      } finally {
        await restarted.close();
        await rm(otherDir, { recursive: true, force: true });
      }
      assert.equal((await garrison(['admin', 'rotate-jwt-secret', 'extra', ...flags])).code, 2);
    });
  });

  it(
    'migrates alone: two migrations started at once on an empty database both succeed, under the lock, which a race cannot break',
    SLOW,
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'garrison-cli-'));
      const database = onMysql ? await freshMysqlDatabase(process.env.GARRISON_TEST_DATABASE!) : null;
      try {
        const flags = ['--data-dir', join(root, 'data'), ...(database ? ['--database', database.url] : [])];
        const runs = await Promise.all([garrison(['migrate', ...flags]), garrison(['migrate', ...flags])]);
        for (const run of runs) {
          assert.equal(run.code, 0, run.stderr);
          assert.match(run.stdout, /is up to date/);
        }
        const listed = await garrison(['users', 'list', '--json', ...flags]);
        assert.deepEqual(JSON.parse(listed.stdout), [], 'the schema is there, and migrate made no user');

        // What knex's own check-then-insert leaves after an unlucky race: two lock rows, a lock never taken again.
        const knex = database
          ? knexFactory({ client: 'mysql2', connection: database.url })
          : knexFactory({ client: 'better-sqlite3', connection: { filename: join(root, 'data', 'garrison.db') }, useNullAsDefault: true });
        try {
          await knex('knex_migrations_lock').insert({ is_locked: 0 });
          const repaired = await garrison(['migrate', ...flags]);
          assert.equal(repaired.code, 0, repaired.stderr);
          assert.equal((await knex('knex_migrations_lock').select('*')).length, 1);
        } finally {
          await knex.destroy();
        }
      } finally {
        await database?.drop();
        await rm(root, { recursive: true, force: true });
      }
    },
  );

  it(
    'serves from flags: the first admin with a password shown once listening, the same secret at the next start, SIGTERM and ' +
      'SIGINT stop it',
    SLOW,
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'garrison-cli-'));
      try {
        const run = await serveProcess(['--host', '127.0.0.1', '--data-dir', dataDir]);
        const api = apiClient(run.url);
        assert.deepEqual((await api('GET', '/system/health')).body, { status: 'ok' });
        const lines = run.process.stdout;
        const shown = lines.findIndex((l) => l.includes('generated password'));
        assert.ok(shown > lines.findIndex((l) => l.includes('listening on')), 'shown after the listening line');
        const password = /generated password: (\S+)/.exec(lines[shown])![1];
        const login = await api('POST', '/auth/login', { body: { username: 'admin', password } });
        assert.equal(login.status, 200);
        for (const l of lines) assert.doesNotMatch(l, new RegExp(login.body.data.access_token), 'no token in the logs');
        run.process.child.kill('SIGTERM');
        assert.equal(await withDeadline(run.process.exited, 30_000, 'the service to stop'), 0);

        const again = await serveProcess(['--data-dir', dataDir]);
        assert.ok(!again.process.stdout.some((l) => l.includes('generated password:')));
        assert.equal((await apiClient(again.url)('GET', '/auth/me', { token: login.body.data.access_token })).status, 200);
        again.process.child.kill('SIGINT');
        assert.equal(await withDeadline(again.process.exited, 30_000, 'the service to stop'), 0);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('serves from the environment, with the admin password given and never logged', SLOW, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-cli-'));
    try {
      const run = await serveProcess([], {
        GARRISON_DATA_DIR: dataDir,
        GARRISON_ADMIN_USERNAME: 'boss',
        GARRISON_ADMIN_PASSWORD: 'boss-password',
        GARRISON_TOKEN_TTL_SECONDS: '120',
      });
      try {
        assert.ok(!run.process.stdout.some((l) => l.includes('boss-password')));
        const login = await apiClient(run.url)('POST', '/auth/login', { body: { username: 'boss', password: 'boss-password' } });
        assert.equal(login.status, 200);
        assert.equal(login.body.data.expires_in, 120);
        assert.ok(!(await readdir(dataDir)).includes('initial-admin-password'), 'no file for a given password');
      } finally {
        await run.process.kill();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('stops cleanly on a SIGTERM that comes while it is still starting', SLOW, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-cli-'));
    const service = startProcess(process.execPath, [...process.execArgv, CLI, 'serve', '--port', '0', '--data-dir', dataDir], {
      env: cliEnv(),
    });
    try {
      await waitFor(() => service.stdout.length > 0, { timeoutMs: 30_000, what: 'the first log line' });
      service.child.kill('SIGTERM');
      assert.equal(await withDeadline(service.exited, 30_000, 'the service to stop'), 0, service.stdout.join('\n'));
      assert.match(service.stdout.filter(Boolean).at(-1)!, /"msg":"stopped"/);
    } finally {
      await service.kill();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('stops with npm start when npm gets SIGTERM, leaving no orphan', SLOW, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-cli-'));
    const npm = startProcess('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: cliEnv({ GARRISON_PORT: '0', GARRISON_DATA_DIR: dataDir }),
      detached: true,
    });
    try {
      const url = await listeningUrl(npm, 'npm start to listen', 60_000);
      npm.child.kill('SIGTERM'); // npm alone, as a process manager would
      await withDeadline(npm.exited, 30_000, 'npm to exit');
      await waitFor(() => !groupAlive(npm.pid), { timeoutMs: 30_000, what: 'every process of npm start to be gone' });
      await assert.rejects(fetch(`${url}/api/system/health`), 'nothing answers any more');
      assert.ok(
        npm.stdout.some((l) => l.includes('"msg":"stopped"')),
        'the service stopped cleanly',
      );
    } finally {
      await npm.kill();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it(
    'never locks the deployer out: a first start that fails after creating the admin keeps the password, and a reset rescues',
    SLOW,
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'garrison-cli-'));
      const port = await freePort();
      const blocker: Server = createTcpServer();
      await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
      try {
        const failed = await garrison(['serve', '--port', String(port), '--data-dir', join(dataDir, 'data')]);
        assert.equal(failed.code, 1);
        assert.match(failed.stdout, new RegExp(`port ${port} on 127.0.0.1 is in use`));
        assert.doesNotMatch(failed.stdout, /generated password/, 'not shown before listening');
        const file = join(dataDir, 'data', 'initial-admin-password');
        assert.equal(await mode(file), '600');
        // The password alone, as `PW=$(cat data/initial-admin-password)` reads it.
        const password = (await readFile(file, 'utf8')).trim();
        assert.match(await readFile(file, 'utf8'), /^\S{12,}\n$/);

        await new Promise<void>((resolve) => blocker.close(() => resolve()));
        const second = await serveProcess(['--data-dir', join(dataDir, 'data')], { GARRISON_ADMIN_PASSWORD: 'ignored-password' });
        try {
          assert.match(second.process.stdout.join('\n'), /GARRISON_ADMIN_PASSWORD is set but ignored/);
          const api = apiClient(second.url);
          const token = (await api('POST', '/auth/login', { body: { username: 'admin', password } })).body.data.access_token;
          assert.ok(token, 'the kept password logs in');
          const changed = await api('PUT', '/auth/password', {
            token,
            body: { current_password: password, new_password: 'a-new-password-1' },
          });
          assert.equal(changed.status, 200, JSON.stringify(changed.body));
          assert.ok(!(await readdir(join(dataDir, 'data'))).includes('initial-admin-password'), 'gone after the first change');
        } finally {
          await second.process.kill();
        }
        const reset = await garrison(['admin', 'reset-password', 'admin', '--password-stdin', '--data-dir', join(dataDir, 'data')], {
          input: 'rescued-password-1\n',
        });
        assert.equal(reset.code, 0, reset.stderr);
      } finally {
        blocker.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('keeps secrets private on disk: data dir 0700, SQLite file and its WAL 0600', { skip: onMysql && 'SQLite files' }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'garrison-cli-'));
    const dataDir = join(root, 'data');
    try {
      const running = await serveProcess(['--data-dir', dataDir]);
      try {
        assert.equal(await mode(dataDir), '700');
        for (const name of ['garrison.db', 'garrison.db-wal', 'garrison.db-shm', 'jwt-secret', 'initial-admin-password'])
          assert.equal(await mode(join(dataDir, name)), '600', name);
      } finally {
        await running.process.kill();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it(
    'logs JSON lines with ISO times when not on a terminal, readable lines with --log-format pretty, and stops on SIGTERM with exit 0',
    SLOW,
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'garrison-cli-'));
      try {
        const json = await serveProcess(['--data-dir', join(root, 'a')]);
        json.process.child.kill('SIGTERM');
        assert.equal(await withDeadline(json.process.exited, 30_000, 'the service to stop'), 0);
        const lines = json.process.stdout.filter(Boolean).map((l) => JSON.parse(l) as { time: string; msg: string });
        assert.ok(
          lines.every((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(l.time)),
          'ISO times',
        );
        assert.deepEqual(
          lines.slice(-2).map((l) => l.msg),
          ['shutting down', 'stopped'],
        );

        const pretty = await serveProcess(['--data-dir', join(root, 'b'), '--log-format', 'pretty']);
        await pretty.process.kill();
        const first = pretty.process.stdout[0] ?? '';
        assert.match(first, /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [+-]\d{4}\] INFO: /);
        assert.throws(() => JSON.parse(first));
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    },
  );
});
