import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sectionDefaults } from '@garrison/core';
import { renderProfile, renderBattlEyeCfg, sections } from '../src/index.js';
import { readCfg } from '../src/import/cfg-reader.js';
import { readBattlEyeCfg } from '../src/import/battleye-cfg.js';
import { importBattlEye, importProfile } from '../src/import/map-profile.js';

const PROFILE = `version=1;
difficulty="Custom";
class DifficultyPresets
{
  class CustomDifficulty
  {
    class Options
    {
      reducedDamage=1;
      groupIndicators=2;
      THIRDPERSONVIEW=0;
      staminaBar=1
      someFutureOption=1;
    };
    aiLevelPreset=3;
  };
  class CustomAILevel { skillAI=0.75; precisionAI=0.35; };
  class Regular { class Options { reducedDamage=0; }; };
};
viewDistance=2000;
`;

describe('importing the server profile and the BattlEye config', () => {
  it(
    'reads the Custom difficulty and the AI level, keeps the options it has no field for inside Options, reports other presets, ' +
      'keeps the rest',
    () => {
      const imported = importProfile(readCfg(PROFILE, 'server.GameaProfile'), sections.profile);
      assert.deepEqual(imported.values, {
        difficulty: 'Custom',
        reduced_damage: 1,
        group_indicators: 2,
        third_person_view: 0,
        stamina_bar: 1,
        ai_level_preset: 3,
        options_lines: ['someFutureOption = 1;'],
        skill_ai: 0.75,
        precision_ai: 0.35,
      });
      assert.deepEqual(
        imported.refused.map((r) => [r.line, r.key]),
        [[18, 'DifficultyPresets.Regular']],
      );
      assert.deepEqual(
        imported.unknown.map((u) => u.key),
        ['version', 'DifficultyPresets.CustomDifficulty.Options.someFutureOption', 'viewDistance'],
      );
      // Rendered back: the same options, read the same way.
      const back = importProfile(
        readCfg(renderProfile({ ...sectionDefaults(sections.profile), ...imported.values, extra_lines: imported.extraLines }), 'x'),
        sections.profile,
      );
      for (const [field, value] of Object.entries(imported.values)) assert.deepEqual(back.values[field], value, field);
      assert.deepEqual(
        back.unknown.map((u) => u.key).sort(),
        ['DifficultyPresets.CustomDifficulty.Options.someFutureOption', 'version', 'viewDistance'],
        'the extra lines are in the file',
      );
    },
  );

  it("reads BattlEye's RCon password, port and ping limit", () => {
    const { settings } = readBattlEyeCfg('RConPassword Abc123\r\nRConPort 2310\r\nMaxPing 250\r\nRConIP 0.0.0.0\r\n');
    const imported = importBattlEye(settings, 'beserver_x64.cfg', sections.rcon);
    assert.deepEqual(imported.values, { rcon_password: 'Abc123', max_ping: 250, enabled: 1 });
    assert.equal(imported.rconPort, 2310);
    assert.deepEqual(
      imported.refused.map((u) => u.key),
      ['RConIP'],
      'Garrison writes no RConIP: said, not dropped',
    );
    assert.equal(
      renderBattlEyeCfg({ ...sectionDefaults(sections.rcon), ...imported.values }, imported.rconPort),
      'RConPassword Abc123\nRConPort 2310\nMaxPing 250\n',
    );
    const bad = importBattlEye(readBattlEyeCfg('RConPassword not-allowed!\nRConPort 80\n').settings, 'be.cfg', sections.rcon);
    assert.deepEqual(
      bad.refused.map((r) => r.key),
      ['RConPassword', 'RConPort'],
    );
    assert.equal(bad.rconPort, null);
  });
});
