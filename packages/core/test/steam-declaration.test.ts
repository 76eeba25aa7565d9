import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { steamDeclarationProblem, type SteamDeclaration } from '../src/index.js';

const GOOD: SteamDeclaration = {
  server_app_id: 1000,
  workshop_app_id: 1001,
  anonymous_server: false,
  branches: [{ name: 'public', password_required: false, description: 'The release' }],
  mod_folder_prefix: '@',
  key_file_extension: '.key',
  keys_folder: 'keys',
  protected_keys: ['game.key'],
  lower_case_on_linux: true,
};

/** A declaration names folders the service makes and deletes in: nothing there may climb out of the installation. */
describe("an adapter's Steam declaration", () => {
  it('takes a plain mod prefix and keys folder', () => {
    assert.equal(steamDeclarationProblem(GOOD), null);
    assert.equal(steamDeclarationProblem({ ...GOOD, mod_folder_prefix: '' }), null);
  });

  it('refuses a prefix or a keys folder that is a path, or the folder itself or its parent', () => {
    for (const prefix of ['../', 'a/b', '.', 'x\\y'])
      assert.match(steamDeclarationProblem({ ...GOOD, mod_folder_prefix: prefix }) ?? '', /mod_folder_prefix/, prefix);
    for (const keys of ['.', '..', 'a/b', '../keys'])
      assert.match(steamDeclarationProblem({ ...GOOD, keys_folder: keys }) ?? '', /keys_folder/, keys);
    assert.equal(steamDeclarationProblem({ ...GOOD, keys_folder: '.keys' }), null, 'a dot inside a name is a name');
  });
});
