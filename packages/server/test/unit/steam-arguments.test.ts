import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ApiError } from '@garrison/core';
import { redact, secretsOf, steamArguments, steamScript, withoutAccountName, type SteamCall } from '../../src/steam/arguments.js';
import { parseAppInfo, parseAppManifest, readAppManifest } from '../../src/steam/app-manifest.js';

const user = { username: 'fixture_user', password: 'hunter2-Secret' };
const dir = '/srv/garrison/servers/1';

function refused(call: SteamCall, field: RegExp) {
  assert.throws(
    () => steamArguments(call),
    (err: unknown) => err instanceof ApiError && err.code === 'VALIDATION_ERROR' && field.test(err.message),
  );
}

describe('SteamCMD arguments', () => {
  it('installs an app from a branch with its password, under one login', () => {
    const call: SteamCall = {
      installDir: dir,
      login: { ...user, guardCode: '7KX2Q' },
      work: { kind: 'app_update', appId: '1000001', branch: 'creatordlc', branchPassword: 'b3ta pass' },
    };
    assert.deepEqual(steamArguments(call), [
      ...['+@NoPromptForPassword', '1', '+@ShutdownOnFailedCommand', '1', '+force_install_dir', dir],
      ...['+login', 'fixture_user', 'hunter2-Secret', '7KX2Q'],
      ...['+app_update', '1000001', '-beta', 'creatordlc', '-betapassword', 'b3ta pass', 'validate', '+quit'],
    ]);
    assert.deepEqual(secretsOf(call).sort(), ['7KX2Q', 'b3ta pass', 'hunter2-Secret']);
    // The runscript SteamCMD reads them from: a command a line, every value quoted (a password may hold spaces).
    assert.deepEqual(steamScript(steamArguments(call)).split('\n'), [
      '@NoPromptForPassword "1"',
      '@ShutdownOnFailedCommand "1"',
      `force_install_dir "${dir}"`,
      'login "fixture_user" "hunter2-Secret" "7KX2Q"',
      'app_update "1000001" "-beta" "creatordlc" "-betapassword" "b3ta pass" "validate"',
      'quit',
      '',
    ]);
  });

  it('downloads every Workshop item under one login; anonymous where allowed; app_info', () => {
    const items = steamArguments({
      installDir: dir,
      login: user,
      work: { kind: 'workshop', appId: '1000002', items: ['450814997', '463939057'] },
    });
    assert.equal(items.filter((a) => a === '+login').length, 1);
    assert.deepEqual(items.slice(9), [
      ...['+workshop_download_item', '1000002', '450814997', 'validate'],
      ...['+workshop_download_item', '1000002', '463939057', 'validate', '+quit'],
    ]);
    const info = steamArguments({ installDir: dir, login: { anonymous: true }, work: { kind: 'app_info', appId: '1000001' } });
    assert.deepEqual(info.slice(6), ['+login', 'anonymous', '+app_info_update', '1', '+app_info_print', '1000001', '+quit']);
    const publicBranch = steamArguments({ installDir: dir, login: user, work: { kind: 'app_update', appId: '1', branch: 'public' } });
    assert.ok(!publicBranch.includes('-beta'), 'public is the default branch: no -beta');
  });

  it('refuses every value SteamCMD would read as another command, never repeating a secret', () => {
    const app = (work: Partial<Extract<SteamCall['work'], { kind: 'app_update' }>>) =>
      ({ installDir: dir, login: user, work: { kind: 'app_update', appId: '1', ...work } }) as SteamCall;
    refused(app({ branch: '+quit' }), /^branch/);
    refused(app({ branch: 'beta two' }), /^branch/);
    refused(app({ branch: 'beta\n+app_update' }), /^branch/);
    refused(app({ branch: 'beta', branchPassword: '+runscript x' }), /^branch_password/);
    refused(app({ branchPassword: 'x' }), /^branch_password: only with a branch/);
    refused(app({ appId: '1 +quit' }), /^app id/);
    refused({ installDir: dir, login: user, work: { kind: 'workshop', appId: '1', items: ['123', '+quit'] } }, /^Workshop item/);
    refused({ installDir: dir, login: user, work: { kind: 'workshop', appId: '1', items: [] } }, /^items/);
    refused({ installDir: dir, login: user, work: { kind: 'workshop', appId: '1', items: ['5', '5'] } }, /^items/);
    refused({ installDir: 'relative', login: user, work: { kind: 'app_info', appId: '1' } }, /^install folder/);
    refused({ installDir: '/srv/a"b', login: user, work: { kind: 'app_info', appId: '1' } }, /^install folder/);
    refused({ installDir: dir, login: { username: '+x', password: 'p' }, work: { kind: 'app_info', appId: '1' } }, /^username/);
    refused({ installDir: dir, login: { username: 'u', password: '+secret' }, work: { kind: 'app_info', appId: '1' } }, /^password/);
    refused({ installDir: dir, login: { username: 'u', password: 'a\rb' }, work: { kind: 'app_info', appId: '1' } }, /^password/);
    refused({ installDir: dir, login: { ...user, guardCode: '+quit' }, work: { kind: 'app_info', appId: '1' } }, /^guard_code/);
    assert.throws(
      () => steamArguments({ installDir: dir, login: { username: 'u', password: '+s3cret' }, work: { kind: 'app_info', appId: '1' } }),
      (err: Error) => !err.message.includes('s3cret'),
    );
  });

  it('redacts every secret in a line, the longest first', () => {
    assert.equal(redact('login u pw pw2 code', ['pw', 'pw2', 'code', '']), 'login u *** *** ***');
    assert.equal(redact('nothing here', []), 'nothing here');
  });

  it("takes the account's name (whole words, any case) and its SteamID out of a line", () => {
    const call: SteamCall = { installDir: '/srv', login: { username: 'bot_7', password: 'p' }, work: { kind: 'app_info', appId: '1' } };
    assert.equal(
      withoutAccountName("Logging in user 'bot_7' [U:1:0] to Steam Public...OK; bot_77 and xbot_7 are others", call),
      "Logging in user 'the Steam account' [its SteamID] to Steam Public...OK; bot_77 and xbot_7 are others",
    );
    // In any case, as Steam takes names; its SteamID in either form.
    assert.equal(withoutAccountName('BOT_7 is 76561197960287930 here', call), 'the Steam account is its SteamID here');
    assert.equal(withoutAccountName('anonymous', { ...call, login: { anonymous: true } }), 'anonymous');
  });
});

const fixture = (name: string) => readFileSync(new URL(`../fixtures/steamcmd/${name}`, import.meta.url), 'utf8');
const installed = new URL('../fixtures/steamcmd/install', import.meta.url).pathname;
const manifest = () => fixture('install/steamapps/appmanifest_1000001.acf');

describe("Steam's app manifest and app_info", () => {
  it('reads the installed build, branch and update time', async () => {
    const expected = { appId: '1000001', buildId: '15520113', branch: 'creatordlc', lastUpdated: new Date(1725963900_000).toISOString() };
    assert.deepEqual(parseAppManifest(manifest()), expected);
    assert.deepEqual(await readAppManifest(installed, '1000001'), expected);
    assert.equal(await readAppManifest(installed, '1000002'), null, 'missing: null');
    assert.equal(await readAppManifest(`${installed}/nowhere`, '1000001'), null, 'missing: null');
    assert.equal(await readAppManifest(installed, '../1000001'), null, 'an app id is digits, never a path');
  });

  it('takes public as the branch when none is set, and null for anything malformed', () => {
    const plain = manifest().replace(/\t"(UserConfig|MountedConfig)"\n\t\{\n[^}]*\}\n/g, '');
    assert.equal(parseAppManifest(plain)?.branch, 'public');
    for (const broken of ['', '"AppState"\n{\n', '{{{', '"AppState"\n{\n\t"appid"\t\t"1"\n}\n', 'not vdf at all']) {
      assert.equal(parseAppManifest(broken), null, JSON.stringify(broken));
    }
  });

  it('refuses a text that would write into a prototype', () => {
    const hostile = '"AppState"\n{\n\t"__proto__"\n\t{\n\t\t"polluted"\t\t"yes"\n\t}\n\t"appid"\t\t"1"\n\t"buildid"\t\t"2"\n}\n';
    assert.equal(parseAppManifest(hostile), null);
    assert.equal(parseAppInfo('"1"\n{\n\t"constructor"\n\t{\n\t\t"keys"\t\t"x"\n\t}\n}\n'), null);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it("reads app_info's branches from SteamCMD's output, or from the block alone", () => {
    const expected = {
      branches: {
        public: { buildid: '15520112', timeupdated: 1725963752, pwdrequired: false },
        creatordlc: { buildid: '15520113', timeupdated: 1725963800, pwdrequired: false },
        profiling: { buildid: '15400000', timeupdated: 1724000000, pwdrequired: true },
      },
    };
    const output = fixture('app-info.txt');
    assert.deepEqual(parseAppInfo(output), expected);
    assert.deepEqual(parseAppInfo(output.slice(output.indexOf('"1000001"'), output.indexOf('Unloading'))), expected);
    assert.equal(parseAppInfo('AppID : 1, change number : 0/0\nNo app info for AppID 1 found\n'), null);
    assert.equal(parseAppInfo('garbage {'), null);
  });
});
