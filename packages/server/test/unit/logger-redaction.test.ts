import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/logging/logger.js';

/** The service's logger writing JSON lines into `lines`. */
function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level: 'info', format: 'json', destination }), text: () => lines.join('') };
}

describe("the service's logger", () => {
  it("never writes a child process's arguments: a failed spawn's error carries its whole command line", () => {
    const { logger, text } = capture();
    // What Node rejects a spawn with: its error keeps the argv, which held SteamCMD's password before its runscript.
    const spawnError = Object.assign(new Error('spawn /opt/steamcmd ENOENT'), {
      code: 'ENOENT',
      spawnargs: ['+login', 'someone', 'Spawn-Secret-1'],
    });
    logger.error({ err: spawnError }, 'as err');
    logger.error(spawnError, 'as the object');
    logger.warn({ error: spawnError, job: { cause: spawnError } }, 'under other names');
    assert.ok(!text().includes('Spawn-Secret-1'), text());
    assert.match(text(), /"code":"ENOENT"/);
    assert.match(text(), /"spawnargs":"\*\*\*"/);
  });
});
