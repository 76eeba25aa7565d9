import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after } from 'node:test';
import { adapterConformance, installFakeGamea, killAll, type RemoteAdminFake } from '@garrison/testkit';
import gamea from '@garrison/adapter-gamea';

after(() => killAll());

/** Enough mission files that BattlEye's answer to `missions` comes in several parts (the fake's are 1 KB each). */
const MISSIONS = Array.from({ length: 160 }, (_, i) => `co10_Conformance_${String(i).padStart(3, '0')}.Altis.pbo`);

const fakeGamea: RemoteAdminFake = {
  async install(dir) {
    const { executables } = await installFakeGamea(dir);
    for (const file of MISSIONS) await writeFile(join(dir, 'mpmissions', file), 'PBO');
    return executables[0];
  },
  // The fake goes with this test process, however it ends; and it answers RCon at once.
  env: { GAMEA_FAKE_WATCH_PID: String(process.pid), GAMEA_FAKE_READY_MS: '50' },
  async join(run, { name, index }) {
    const guid = (index + 1).toString(16).padStart(32, 'c');
    await run(`testkit.join ${name} ${guid} 127.0.0.${index + 2}`);
  },
  // BattlEye's `bans` lists what it holds (GUID and IP bans), as it read them from bans.txt.
  holdsBan: async (run, id) => (await run('bans')).split('\n').some((row) => row.split(/\s+/)[1] === id.value),
  longAnswer: { command: 'missions', answer: ['Missions on server:', ...MISSIONS].join('\n') },
};

// The suite any adapter runs in its own tests: gamea holds itself to it like everyone else.
adapterConformance(gamea, {
  validMissionFile: 'co10_Escape.Altis.pbo',
  sampleLogLines: ['12:00:01 Dedicated host created.', "12:00:02 Warning Message: No entry 'bin\\config.bin/CfgVehicles'."],
  sampleLogFile: 'server_2026-01-01_12-00-00.rpt',
  remoteAdmin: fakeGamea,
});
