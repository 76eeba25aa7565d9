import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { composeSettings, declareSettings, integer, text } from '../../src/setting-specs.js';
import { resolveSettings, SETTINGS, settingsFromEnv } from '../../src/settings.js';
import { withSettingsTable } from '../../src/cli/settings-doc.js';

describe('the settings, declared by each feature', () => {
  const alpha = declareSettings<{ alphaPollMs: number }>({
    feature: 'alpha',
    defaults: { alphaPollMs: 1000 },
    specs: [{ key: 'alphaPollMs', env: 'GARRISON_ALPHA_POLL_MS', flag: 'alpha-poll', meaning: 'how often alpha looks', parse: integer(1) }],
  });

  it('compose into one: every spec in order, the defaults merged', () => {
    const beta = declareSettings<{ betaName: string }>({
      feature: 'beta',
      defaults: { betaName: 'b' },
      specs: [{ key: 'betaName', env: 'GARRISON_BETA_NAME', meaning: "beta's name", parse: text }],
    });
    const composed = composeSettings([alpha, beta]);
    assert.deepEqual(
      composed.specs.map((s) => s.env),
      ['GARRISON_ALPHA_POLL_MS', 'GARRISON_BETA_NAME'],
    );
    assert.deepEqual(composed.defaults, { alphaPollMs: 1000, betaName: 'b' });
  });

  it('refuse a variable, a flag or a key declared twice, naming both features', () => {
    const beta = (env: string, flag?: string) =>
      declareSettings<{ betaPollMs: number }>({
        feature: 'beta',
        defaults: { betaPollMs: 5 },
        specs: [{ key: 'betaPollMs', env, flag, meaning: 'how often beta looks', parse: integer(1) }],
      });
    assert.throws(
      () => composeSettings([alpha, beta('GARRISON_ALPHA_POLL_MS')]),
      /the setting GARRISON_ALPHA_POLL_MS is declared twice: by alpha and by beta/,
    );
    assert.throws(
      () => composeSettings([alpha, beta('GARRISON_BETA_POLL_MS', 'alpha-poll')]),
      /the setting --alpha-poll is declared twice: by alpha and by beta/,
    );
    const sameKey = declareSettings<{ alphaPollMs: number }>({ feature: 'beta', defaults: { alphaPollMs: 5 }, specs: [] });
    assert.throws(() => composeSettings([alpha, sameKey]), /the setting alphaPollMs is declared twice: by alpha and by beta/);
  });

  it("give every setting a default, a variable of the service's own and a meaning", () => {
    const settings = resolveSettings();
    for (const spec of SETTINGS) {
      assert.ok(spec.key in settings, `${spec.key} has a default`);
      assert.match(spec.env, /^GARRISON_[A-Z0-9_]+$/);
      assert.ok(spec.meaning.length > 0, `${spec.env} says what it means`);
    }
    assert.deepEqual(settingsFromEnv({ GARRISON_SCHEDULE_POLL_MS: '250', GARRISON_BACKUP_DIR: '/srv/backups' }), {
      schedulePollMs: 250,
      backupDir: '/srv/backups',
    });
  });

  it('read a variable under its former name when the current one is unset: the default game type', () => {
    assert.equal(resolveSettings().defaultGameType, 'gamea', 'the first game, when nothing is set');
    assert.deepEqual(settingsFromEnv({ GARRISON_DEFAULT_GAME: 'gameb' }), { defaultGameType: 'gameb' });
    assert.deepEqual(settingsFromEnv({ GARRISON_DEFAULT_GAME_TYPE: 'gameb' }), { defaultGameType: 'gameb' }, 'the former name');
    assert.deepEqual(
      settingsFromEnv({ GARRISON_DEFAULT_GAME: 'gamec', GARRISON_DEFAULT_GAME_TYPE: 'gameb' }),
      { defaultGameType: 'gamec' },
      'the current name wins',
    );
    assert.deepEqual(settingsFromEnv({ GARRISON_DEFAULT_GAME: '', GARRISON_DEFAULT_GAME_TYPE: 'gameb' }), { defaultGameType: 'gameb' });
    const formerClash = declareSettings<{ betaMs: number }>({
      feature: 'beta',
      defaults: { betaMs: 1 },
      specs: [{ key: 'betaMs', env: 'GARRISON_BETA_MS', formerEnv: 'GARRISON_ALPHA_POLL_MS', meaning: 'beta', parse: integer(1) }],
    });
    assert.throws(() => composeSettings([alpha, formerClash]), /GARRISON_ALPHA_POLL_MS is declared twice: by alpha and by beta/);
  });

  it('are the table of docs/configuration.md, as npm run settings-table writes it', async () => {
    const doc = await readFile(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    assert.equal(doc, withSettingsTable(doc), 'docs/configuration.md differs from the declared settings: npm run settings-table');
  });
});
