import type { SteamDeclaration } from '@garrison/core';

/** The dedicated server's Steam app, which an anonymous login may fetch; the game has no Workshop mods and no signing keys. */
export const steam: SteamDeclaration = {
  server_app_id: 232330,
  workshop_app_id: null,
  anonymous_server: true,
  branches: [{ name: 'public', password_required: false, description: 'The current release' }],
  mod_folder_prefix: '',
  key_file_extension: null,
  keys_folder: null,
  protected_keys: [],
  lower_case_on_linux: false,
};
