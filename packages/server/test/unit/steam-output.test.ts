import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LineSplitter, OutputTail, SteamOutputReader, type SteamEvent } from '../../src/steam/output.js';
import { redact } from '../../src/steam/arguments.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/steamcmd/${name}`, import.meta.url), 'utf8');

/** The lines and events of a fixture fed in chunks of `size` characters (cuts fall anywhere, \r\n included). */
function read(text: string, size = 7, secrets: string[] = []) {
  const lines: string[] = [];
  const events: SteamEvent[] = [];
  const reader = new SteamOutputReader(
    (t) => redact(t, secrets),
    (line, said) => {
      lines.push(line);
      events.push(...said);
    },
  );
  for (let i = 0; i < text.length; i += size) reader.feed(text.slice(i, i + size));
  reader.end();
  return { lines, events, failures: events.flatMap((e) => (e.type === 'failure' ? [e.error] : [])) };
}

describe('SteamCMD output, line by line', () => {
  it('splits at \\n, \\r\\n and a lone \\r (a progress redraw), whatever the chunks', () => {
    for (const size of [1, 2, 3, 1000]) {
      const splitter = new LineSplitter();
      const text = 'a\r\nb\rc\nd\r\r\ne';
      const lines: string[] = [];
      for (let i = 0; i < text.length; i += size) lines.push(...splitter.feed(text.slice(i, i + size)));
      lines.push(...splitter.end());
      assert.deepEqual(lines, ['a', 'b', 'c', 'd', '', 'e'], `chunks of ${size}`);
    }
  });

  it('reads an app update: every \\r redraw a progress fraction, then the success', () => {
    const { events, failures } = read(fixture('app-update.txt'));
    const progress = events.flatMap((e) => (e.type === 'progress' ? [Number(e.fraction.toFixed(4))] : []));
    assert.deepEqual(progress, [0, 0.125, 0.4512, 0.9998, 0.5]);
    assert.deepEqual(
      events.find((e) => e.type === 'progress' && e.done === 1234567),
      { type: 'progress', state: 'downloading', fraction: 1234567 / 2736373, done: 1234567, total: 2736373 },
    );
    assert.ok(events.some((e) => e.type === 'logged_in' && e.user === 'fixture_user'));
    assert.ok(events.some((e) => e.type === 'app_installed' && e.appId === '1000001'));
    assert.deepEqual(failures, []);
  });

  it('reads Workshop items: downloaded with path and size, failed with a typed error; the password-bearing line masked', () => {
    const { lines, events } = read(fixture('workshop.txt'), 5, ['hunter2-Secret', '7KX2Q']);
    assert.deepEqual(
      events.find((e) => e.type === 'item_downloaded'),
      {
        type: 'item_downloaded',
        itemId: '450814997',
        path: '/srv/steam/steamapps/workshop/content/1000002/450814997',
        bytes: 12345678,
      },
    );
    const failed = events.flatMap((e) => (e.type === 'item_failed' ? [[e.itemId, e.reason, e.error.code]] : []));
    assert.deepEqual(failed, [
      ['463939057', 'Timeout', 'STEAM_ITEM_TIMEOUT'],
      ['620260972', 'Access Denied', 'STEAM_ITEM_FAILED'],
    ]);
    assert.ok(events.some((e) => e.type === 'logged_in'));
    // The parser's events carry no line: the runner masks what it passes on (runner test); here the mask itself.
    const masked = lines.map((l) => redact(l, ['hunter2-Secret', '7KX2Q']));
    assert.ok(masked.some((l) => l.includes('+login fixture_user *** ***')));
    assert.ok(!masked.join('\n').includes('hunter2') && !masked.join('\n').includes('7KX2Q'));
  });

  const failing: [string, string, RegExp][] = [
    ['guard.txt', 'STEAM_GUARD_REQUIRED', /Steam Guard code/],
    ['two-factor.txt', 'STEAM_GUARD_REQUIRED', /Steam Guard code/],
    ['invalid-password.txt', 'STEAM_LOGIN_FAILED', /refused the login of the Steam account \(Invalid Password\)/],
    ['invalid-password-result-code.txt', 'STEAM_LOGIN_FAILED', /\(Invalid Password\)/],
    ['rate-limit.txt', 'STEAM_RATE_LIMITED', /Rate Limit Exceeded.*wait/],
    ['anonymous-no-subscription.txt', 'STEAM_NO_SUBSCRIPTION', /app 1000001 to this login \(No subscription\).*owns it/],
    ['disk-full.txt', 'STEAM_DISK_FULL', /0x202.*free space/],
    ['network.txt', 'STEAM_NETWORK', /0x602.*network/],
    ['branch-password.txt', 'STEAM_BRANCH_PASSWORD', /branch password for app 1000001 \(Failure\)/],
  ];
  for (const [name, code, message] of failing) {
    it(`maps ${name} to one ${code}`, () => {
      const { failures } = read(fixture(name), 4);
      assert.deepEqual(
        failures.map((f) => f.code),
        [code],
      );
      assert.match(failures[0].message, message);
    });
  }

  it('maps the other state codes and item reasons to their codes', () => {
    const codes = (text: string) =>
      read(text).events.flatMap((e) => (e.type === 'failure' || e.type === 'item_failed' ? [e.error.code] : []));
    assert.deepEqual(codes("Error! App '1' state is 0x402 after update job.\n"), ['STEAM_NETWORK']);
    assert.deepEqual(codes("Error! App '1' state is 0x6 after update job.\n"), ['STEAMCMD_FAILED']);
    assert.deepEqual(codes("ERROR! Failed to install app '1' (Disk write failure)\n"), ['STEAM_DISK_FULL']);
    assert.deepEqual(codes("ERROR! Failed to install app '1' (Invalid platform)\n"), ['STEAMCMD_FAILED']);
    assert.deepEqual(codes('ERROR! Download item 5 failed (Failure).\n'), ['STEAM_ITEM_FAILED']);
    assert.deepEqual(codes("Logging in user 'u' to Steam Public...FAILED (No Connection)\n"), ['STEAM_NETWORK']);
    assert.deepEqual(codes("Logging in user 'u' to Steam Public...FAILED login with result code Invalid Login Auth Code\n"), [
      'STEAM_GUARD_REQUIRED',
    ]);
    assert.deepEqual(codes('Waiting for user info...OK\nDownloading item 5 ...\n'), [], 'ordinary lines say nothing');
  });

  it('masks a secret that appears in a failure reason', () => {
    const { failures } = read("Logging in user 'u' to Steam Public...FAILED (bad s3cret!)\n", 3, ['s3cret!']);
    assert.equal(failures[0].message.includes('s3cret!'), false);
    assert.match(failures[0].message, /\(bad \*\*\*\)/);
  });

  it('collects the app_info block up to its closing brace, braces inside strings aside, and no further', () => {
    const { events } = read(fixture('app-info.txt'), 11);
    const info = events.filter((e) => e.type === 'app_info');
    assert.equal(info.length, 1);
    const text = info[0].type === 'app_info' ? info[0].text : '';
    assert.ok(text.startsWith('"1000001"') && text.trimEnd().endsWith('}'));
    assert.ok(!text.includes('Unloading'));
  });

  it('keeps a bounded tail, a progress redraw replacing the one before', () => {
    const tail = new OutputTail(3);
    tail.push('a');
    tail.push('p1', true);
    tail.push('p2', true);
    assert.deepEqual(tail.lines, ['a', 'p2']);
    for (const line of ['b', 'c', 'd']) tail.push(line);
    assert.deepEqual(tail.lines, ['b', 'c', 'd']);
  });
});
