import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { KEY_SCOPES } from '@garrison/core';
import { freeGamePorts } from '@garrison/testkit';
import { expectError, startHarness, type Harness } from './helpers.js';

const EXE = 'gameaserver_x64.exe';

/** A folder with the game's executable (an empty file: nothing here starts it) and the files given. */
async function gameFolder(parent: string, name: string, files: Record<string, string | Buffer> = {}): Promise<string> {
  const dir = join(parent, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, EXE), '');
  for (const [file, content] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), content);
  }
  return dir;
}

/** Whether the answer holds any of these (in its JSON, so escaped text counts too). */
const holds = (body: unknown, ...needles: string[]) =>
  needles.filter((n) => JSON.stringify(body).includes(n) || JSON.stringify(body).includes(JSON.stringify(n).slice(1, -1)));

/**
 * Issue 29, finding 1: the import read any file of the host and answered its text, and a key with
 * servers:write turned that into the token signing secret. Each test here failed on the code before.
 */
describe('import: no file of the host leaks, and no key imports', () => {
  let h: Harness;
  let tmp: string;
  before(async () => {
    h = await startHarness();
    tmp = await mkdtemp(join(tmpdir(), 'garrison-import-sec-'));
  });
  after(async () => {
    await h.close();
    await rm(tmp, { recursive: true, force: true });
  });
  const importAs = (token: string, body: Record<string, unknown>) => h.api('POST', '/servers/import', { token, body });

  it("the tester's attack: a servers:write key and an executable in the data dir get neither the signing secret nor a plan", async () => {
    const secret = (await readFile(join(h.dataDir, 'jwt-secret'), 'utf8')).trim();
    const attack = { exe_path: join(h.dataDir, EXE), command_line: 'x -port=26302 -config=jwt-secret', dry_run: true };
    const key = (await h.api('POST', '/auth/keys', { token: h.adminToken, body: { name: 'writer', scopes: ['servers:write'] } })).body.data
      .key as string;
    const byKey = await importAs(key, attack);
    expectError(byKey, 403, 'FORBIDDEN');
    assert.deepEqual(holds(byKey.body, secret), []);
    const everything = (await h.api('POST', '/auth/keys', { token: h.adminToken, body: { name: 'all scopes', scopes: [...KEY_SCOPES] } }))
      .body.data.key as string;
    expectError(await importAs(everything, attack), 403, 'FORBIDDEN');

    // A signed-in admin cannot make the data dir a game folder either, by import, create or update.
    const byAdmin = await importAs(h.adminToken, attack);
    assert.match(expectError(byAdmin, 400, 'EXE_NOT_ALLOWED').message, /data dir/);
    assert.deepEqual(holds(byAdmin.body, secret), []);
    for (const folder of [h.dataDir, join(h.dataDir, 'servers'), join(h.dataDir, 'backups')]) {
      expectError(
        await h.api('POST', '/servers', {
          token: h.adminToken,
          body: { name: 'in data', exe_path: join(folder, EXE), ...(await freeGamePorts()) },
        }),
        400,
        'EXE_NOT_ALLOWED',
      );
    }
    const made = await h.api('POST', '/servers', {
      token: h.adminToken,
      body: { name: 'elsewhere', exe_path: `/opt/gamea/${EXE}`, ...(await freeGamePorts()) },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    expectError(
      await h.api('PUT', `/servers/${made.body.data.id}`, { token: h.adminToken, body: { exe_path: join(h.dataDir, EXE) } }),
      400,
      'EXE_NOT_ALLOWED',
    );
    await h.api('DELETE', `/servers/${made.body.data.id}`, { token: h.adminToken });
  });

  it('refuses a file that is not the game config as a whole, by file, line and column, never by its text', async () => {
    const jwt = randomBytes(24).toString('base64url');
    const cluster = randomBytes(24).toString('base64url');
    const dir = await gameFolder(tmp, 'leaky', {
      'garrison.env': `GARRISON_JWT_SECRET=${jwt}\nGARRISON_CLUSTER_SECRET=${cluster}\n`,
      shadow: 'zorblax:$6$saltsalt$hashhashhash:19000:0:99999:7:::\nquuxuser:*:19000:0:99999:7:::\n',
      'binary.cfg': Buffer.concat([Buffer.from('hostname = "x";\n'), Buffer.from([0, 1, 2, 0]), Buffer.from('zorblaxbin')]),
      'battleye/BEServer_x64.cfg': 'RConPassword zorblaxRcon\n=zorblaxline=\n',
    });
    const exe_path = join(dir, EXE);
    const { game_port } = await freeGamePorts();
    const commandLine = (config: string) => `x -port=${game_port} -config=${config}`;

    const env = await importAs(h.adminToken, { exe_path, command_line: commandLine('garrison.env'), dry_run: true });
    const envError = expectError(env, 400, 'INVALID_CONFIG');
    assert.deepEqual([envError.file, envError.line, envError.column], [join(dir, 'garrison.env'), 1, 1]);
    assert.deepEqual(holds(env.body, jwt, cluster, 'GARRISON_JWT_SECRET', 'GARRISON_CLUSTER_SECRET'), []);

    const shadow = await importAs(h.adminToken, { exe_path, config_path: 'shadow', dry_run: true });
    expectError(shadow, 400, 'INVALID_CONFIG');
    assert.deepEqual(holds(shadow.body, 'zorblax', 'quuxuser', 'hashhash', 'saltsalt'), []);

    const binary = await importAs(h.adminToken, { exe_path, config_path: 'binary.cfg', dry_run: true });
    assert.match(expectError(binary, 400, 'VALIDATION_ERROR').message, /not a text file/);
    assert.deepEqual(holds(binary.body, 'zorblaxbin'), []);

    // BattlEye's config parsed: its unreadable line is said by number only.
    await writeFile(join(dir, 'server.cfg'), 'hostname = "Leaky";\n');
    const plan = await importAs(h.adminToken, { exe_path, command_line: `x -port=${game_port}`, dry_run: true });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.ok(
      plan.body.data.warnings.some((w: string) => /BEServer_x64\.cfg line 2/.test(w)),
      JSON.stringify(plan.body.data.warnings),
    );
    assert.deepEqual(holds(plan.body, 'zorblaxline', 'zorblaxRcon'), []);
  });

  it(
    "never answers another server's secrets: an installation it shares is imported without the files' passwords, another's " +
      'folder is refused for every file read',
    async () => {
      const parent = await mkdtemp(join(tmp, 'games-'));
      const other = await gameFolder(parent, 'a', {
        'server.cfg': 'hostname = "A";\npasswordAdmin = "zorblaxAdmin";\npassword = "zorblaxJoin";\n',
      });
      const ports = await freeGamePorts();
      const a = await h.api('POST', '/servers', {
        token: h.adminToken,
        body: { name: 'A', exe_path: join(other, EXE), ...(await freeGamePorts()) },
      });
      assert.equal(a.status, 201, JSON.stringify(a.body));
      const command_line = `x -port=${ports.game_port}`;

      // The same installation (issue 30: a second server on it is allowed, said): the plan and the server
      // made carry new passwords, never the ones the files hold, which may be server A's.
      const planned = await importAs(h.adminToken, { exe_path: join(other, EXE), command_line, dry_run: true });
      assert.equal(planned.status, 200, JSON.stringify(planned.body));
      assert.deepEqual(holds(planned.body, 'zorblaxAdmin', 'zorblaxJoin'), []);
      const warnings = planned.body.data.warnings as string[];
      assert.ok(
        warnings.some((w) => w.startsWith('shares_installation: server ')),
        warnings.join('\n'),
      );
      assert.ok(
        warnings.some((w) => /^passwords not taken from the files \(.*passwordAdmin|password_admin/.test(w)),
        warnings.join('\n'),
      );
      const same = await importAs(h.adminToken, { exe_path: join(other, EXE), command_line, name: 'B' });
      assert.equal(same.status, 201, JSON.stringify(same.body));
      assert.deepEqual(holds(same.body, 'zorblaxAdmin', 'zorblaxJoin'), []);
      const made = same.body.data.server as { id: number };
      const preview = (await h.api('GET', `/servers/${made.id}/config/preview`, { token: h.adminToken })).body.data as Record<
        string,
        string
      >;
      assert.deepEqual(holds(preview, 'zorblaxAdmin', 'zorblaxJoin'), [], 'the files written for B hold none of A');
      assert.equal((await h.api('DELETE', `/servers/${made.id}`, { token: h.adminToken })).status, 204);

      await gameFolder(parent, '.');
      const around = await importAs(h.adminToken, { exe_path: join(parent, EXE), config_path: 'a/server.cfg', command_line });
      assert.match(expectError(around, 400, 'VALIDATION_ERROR').message, new RegExp(`folder of server ${a.body.data.id}`));
      assert.deepEqual(holds(around.body, 'zorblaxAdmin', 'zorblaxJoin'), []);

      const link = join(parent, 'elsewhere.cfg');
      await symlink(join(other, 'server.cfg'), link);
      const linked = await importAs(h.adminToken, { exe_path: join(parent, EXE), config_path: 'elsewhere.cfg', command_line });
      expectError(linked, 400, 'VALIDATION_ERROR');
      assert.deepEqual(holds(linked.body, 'zorblaxAdmin', 'zorblaxJoin'), []);
      const servers = (await h.api('GET', '/servers', { token: h.adminToken })).body.data as { name: string }[];
      assert.deepEqual(
        servers.map((s) => s.name),
        ['A'],
        'nothing imported',
      );
      await h.api('DELETE', `/servers/${a.body.data.id}`, { token: h.adminToken });
    },
  );

  it("refuses an #include outside the server's own folder in extra_lines (400, said clearly); one inside it stays", async () => {
    const s = (
      await h.api('POST', '/servers', {
        token: h.adminToken,
        body: { name: 'includes', exe_path: `/opt/gamea/${EXE}`, ...(await freeGamePorts()) },
      })
    ).body.data;
    const put = async (extra_lines: string[]) => {
      const { config_version } = (await h.api('GET', `/servers/${s.id}/config/server`, { token: h.adminToken })).body.data._meta;
      return h.api('PUT', `/servers/${s.id}/config/server`, { token: h.adminToken, body: { extra_lines, config_version } });
    };
    for (const line of [
      '#include "/etc/passwd"',
      '#include "..\\..\\..\\etc\\passwd"',
      '#include <C:\\Windows\\win.ini>',
      '#include "sub/../../x.hpp"',
      '#include /etc/passwd',
    ]) {
      const refused = expectError(await put(['allowedVoteCmds[] = {};', line]), 400, 'VALIDATION_ERROR');
      assert.match(refused.message, /extra_lines.*line 2: .*#include.*server's own folder/, line);
    }
    const kept = await put(['#include "rotation.hpp"', 'allowedVoteCmds[] = {};']);
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    const preview = (await h.api('GET', `/servers/${s.id}/config/preview`, { token: h.adminToken })).body.data;
    assert.ok(!preview['server.cfg'].includes('/etc/passwd'));
    await h.api('DELETE', `/servers/${s.id}`, { token: h.adminToken });
  });
});

describe('GARRISON_GAME_ROOTS: executables and imported files inside the roots only, links followed', () => {
  let h: Harness;
  let root: string;
  let outside: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'garrison-roots-'));
    outside = await mkdtemp(join(tmpdir(), 'garrison-outside-'));
    h = await startHarness({ gameRoots: [root] });
  });
  after(async () => {
    await h.close();
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('confines create, update and import; a link out of a root is outside', async () => {
    const inside = await gameFolder(root, 'game', { 'server.cfg': 'hostname = "Inside";\n' });
    const away = await gameFolder(outside, 'game', { 'server.cfg': 'hostname = "zorblaxOutside";\npasswordAdmin = "zorblaxPass";\n' });
    await symlink(away, join(root, 'link'));
    await symlink(join(away, 'server.cfg'), join(inside, 'linked.cfg'));
    const ports = async () => freeGamePorts();

    const made = await h.api('POST', '/servers', {
      token: h.adminToken,
      body: { name: 'in', exe_path: join(inside, EXE), ...(await ports()) },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    for (const exe of [join(away, EXE), join(root, 'link', EXE), `${root}/../${EXE}`, `C:\\games\\${EXE}`]) {
      assert.match(
        expectError(
          await h.api('POST', '/servers', { token: h.adminToken, body: { name: 'out', exe_path: exe, ...(await ports()) } }),
          400,
          'EXE_NOT_ALLOWED',
        ).message,
        /game roots|not a path on this host/,
        exe,
      );
      expectError(
        await h.api('PUT', `/servers/${made.body.data.id}`, { token: h.adminToken, body: { exe_path: exe } }),
        400,
        'EXE_NOT_ALLOWED',
      );
    }
    await h.api('DELETE', `/servers/${made.body.data.id}`, { token: h.adminToken });

    const command_line = `x -port=${(await ports()).game_port}`;
    for (const exe of [join(away, EXE), join(root, 'link', EXE)]) {
      const res = await h.api('POST', '/servers/import', { token: h.adminToken, body: { exe_path: exe, command_line, dry_run: true } });
      expectError(res, 400, 'EXE_NOT_ALLOWED');
      assert.deepEqual(holds(res.body, 'zorblaxOutside', 'zorblaxPass'), []);
    }
    const linked = await h.api('POST', '/servers/import', {
      token: h.adminToken,
      body: { exe_path: join(inside, EXE), config_path: 'linked.cfg', command_line, dry_run: true },
    });
    expectError(linked, 400, 'VALIDATION_ERROR');
    assert.deepEqual(holds(linked.body, 'zorblaxOutside', 'zorblaxPass'), []);
    const plan = await h.api('POST', '/servers/import', {
      token: h.adminToken,
      body: { exe_path: join(inside, EXE), command_line, dry_run: true },
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.equal(plan.body.data.server.name, 'Inside');
  });
});
