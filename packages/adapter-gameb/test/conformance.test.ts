import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { adapterConformance, bigReplyText, installFakeGameb, killAll, type RemoteAdminFake } from '@garrison/testkit';
import gameb from '../src/index.js';

after(() => killAll());

/** An answer of five Source RCON packets (4096 bytes of body each at most). */
const LONG_ANSWER_BYTES = 20_000;

/**
 * The fake as an engine that prints (and compares in bans) the universe digit `universe`: a SteamID ban
 * holds when the game refuses that player's join for it, whatever its ban list shows.
 */
const fakeGameb = (universe: number): RemoteAdminFake => ({
  async install(dir) {
    const { executables } = await installFakeGameb(dir);
    await writeFile(join(dir, 'maps', 'de_dust2.bsp'), 'VBSP');
    return executables[0];
  },
  // The fake goes with this test process, however it ends.
  env: { GAMEB_FAKE_WATCH_PID: String(process.pid), GAMEB_FAKE_UNIVERSE: String(universe) },
  async join(run, { name, index }) {
    await run(`testkit.join ${name} STEAM_${universe}:1:${1000 + index} 127.0.0.${index + 2}`);
  },
  async holdsBan(run, id) {
    if (id.kind === 'IP') return (await run('listip')).split('\n').some((row) => row.split(' ')[1] === id.value);
    const answer = await run(`testkit.join Probe ${id.value} 10.200.0.1`);
    const joined = /joined userid (\d+)/.exec(answer);
    if (joined) await run(`testkit.leave ${joined[1]}`);
    return /banned from this server \(STEAM ID\)/.test(answer);
  },
  longAnswer: { command: `testkit.bigreply ${LONG_ANSWER_BYTES}`, answer: bigReplyText(LONG_ANSWER_BYTES) },
});

// The same suite as the first game's, remote admin included: a second protocol held to one contract.
adapterConformance(gameb, {
  validMissionFile: 'de_dust2.bsp',
  sampleLogLines: ['L 11/27/2026 - 02:07:19: Loading map "de_dust2"', 'L 11/27/2026 - 02:07:20: Error: something broke'],
  sampleLogFile: 'L1127000.log',
  remoteAdmin: fakeGameb(0),
});

// Again against an engine branch that prints STEAM_1: the same bans hold there.
describe('on an engine of universe 1', () => {
  adapterConformance(gameb, {
    validMissionFile: 'de_dust2.bsp',
    sampleLogLines: ['L 11/27/2026 - 02:07:19: Loading map "de_dust2"'],
    sampleLogFile: 'L1127000.log',
    remoteAdmin: fakeGameb(1),
  });
});
