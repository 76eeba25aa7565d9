import type { SteamDeclaration } from '@garrison/core';

/**
 * The game's Steam apps: its dedicated server (which an anonymous login cannot fetch: the account
 * must own the game) and its Workshop; mods are `@name` folders whose `.bikey` keys go into `keys/`,
 * where the game's own key stays; the Linux server loads mod folders and files only in lower case.
 */
export const steam: SteamDeclaration = {
  server_app_id: 233780,
  workshop_app_id: 107410,
  anonymous_server: false,
  branches: [
    { name: 'public', password_required: false, description: 'The current stable release' },
    {
      name: 'profiling',
      password_required: true,
      description: 'Profiling and testing builds, with the next hotfixes (a published password)',
    },
    { name: 'performance', password_required: false, description: 'Performance builds' },
    { name: 'contact', password_required: false, description: 'The server of the Contact expansion (legacy)' },
    { name: 'creatordlc', password_required: false, description: 'The server with the Creator DLC data' },
  ],
  mod_folder_prefix: '@',
  key_file_extension: '.bikey',
  keys_folder: 'keys',
  protected_keys: ['a3.bikey'],
  lower_case_on_linux: true,
};
