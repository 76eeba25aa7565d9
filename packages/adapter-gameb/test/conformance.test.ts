import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after } from 'node:test';
import { adapterConformance, bigReplyText, installFakeGameb, killAll, type RemoteAdminFake } from '@garrison/testkit';
import gameb from '../src/index.js';

after(() => killAll());

/** An answer of five Source RCON packets (4096 bytes of body each at most). */
const LONG_ANSWER_BYTES = 20_000;

const fakeGameb: RemoteAdminFake = {
  async install(dir) {
    const { executables } = await installFakeGameb(dir);
    await writeFile(join(dir, 'maps', 'de_dust2.bsp'), 'VBSP');
    return executables[0];
  },
  // The fake goes with this test process, however it ends.
  env: { GAMEB_FAKE_WATCH_PID: String(process.pid) },
  async join(run, { name, index }) {
    await run(`testkit.join ${name} STEAM_0:1:${1000 + index} 127.0.0.${index + 2}`);
  },
  // The game's own lists of what it holds: `listid` (SteamIDs) and `listip` (addresses).
  holdsBan: async (run, id) =>
    (await run(id.kind === 'IP' ? 'listip' : 'listid')).split('\n').some((row) => row.split(' ')[1] === id.value),
  longAnswer: { command: `testkit.bigreply ${LONG_ANSWER_BYTES}`, answer: bigReplyText(LONG_ANSWER_BYTES) },
};

// The same suite as the first game's, remote admin included: a second protocol held to one contract.
adapterConformance(gameb, {
  validMissionFile: 'de_dust2.bsp',
  sampleLogLines: ['L 11/27/2026 - 02:07:19: Loading map "de_dust2"', 'L 11/27/2026 - 02:07:20: Error: something broke'],
  sampleLogFile: 'L1127000.log',
  remoteAdmin: fakeGameb,
});
