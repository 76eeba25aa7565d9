import { configSection, Field, Type } from '@garrison/core';
import { MAP_NAME_PATTERN } from '../maps.js';

/** A cvar value goes between quotes, which the game's syntax cannot escape: no quote and no line break in it. */
const CVAR_TEXT = '^[^"\\u0000-\\u001f\\u007f]*$';
/** The RCON password: printable, without quotes, spaces or `;` (which would end or split the command that sets it). */
const RCON_PASSWORD_PATTERN = '^[!#-:<-~]{0,64}$';

const MapcycleEntry = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 64, pattern: MAP_NAME_PATTERN }) },
  { additionalProperties: false },
);

const serverSection = configSection({
  hostname: Field.text({
    label: 'Server name',
    description: "The server's name in the game's server browser",
    default: 'Garrison Server',
    maxLength: 128,
    pattern: CVAR_TEXT,
  }),
  sv_password: Field.password({
    label: 'Join password',
    description: 'Players must type it to join; empty lets anyone join',
    default: '',
    maxLength: 64,
    pattern: CVAR_TEXT,
  }),
  max_players: Field.integer({
    label: 'Max players',
    description: 'Player slots (+maxplayers on the command line); takes effect at the next start',
    default: 24,
    min: 1,
    max: 255,
  }),
  sv_maxrate: Field.integer({
    label: 'Max rate (bytes/s, 0 = no limit)',
    description: 'The most bytes per second the server sends one player',
    unit: 'bytes/s',
    default: 0,
    min: 0,
    max: 1_048_576,
  }),
  mp_timelimit: Field.integer({
    label: 'Time limit per map (minutes, 0 = none)',
    description: 'Minutes a map is played before the next one of the map cycle',
    unit: 'min',
    default: 30,
    min: 0,
    max: 100_000,
  }),
  extra_lines: Field.lines({
    label: 'Extra lines for server.cfg',
    description:
      'Written at the end of server.cfg as they are: cvars and commands Garrison has no field for (sv_cheats 0). A cvar ' +
      'Garrison writes itself is refused: use its field.',
    placeholder: 'sv_allowupload 0',
    default: [],
    maxItems: 500,
  }),
});

const rconSection = configSection({
  // Garrison's own way into the game (players, kicks, a clean stop): replaced, never cleared, in the console.
  rcon_password: Field.password({
    label: 'RCon password',
    description: 'The rcon_password Garrison uses over Source RCON on the game port (no spaces, quotes or ;)',
    default: '',
    maxLength: 64,
    pattern: RCON_PASSWORD_PATTERN,
    clearable: false,
  }),
});

const mapcycleSection = configSection({
  start_map: Field.text({
    label: 'Map when the map cycle is empty',
    description: 'The map the server starts on (+map) when the map cycle has none; otherwise it starts on the first of the cycle',
    default: 'de_dust2',
    maxLength: 64,
    pattern: MAP_NAME_PATTERN,
  }),
  maps: Field.hidden(Type.Array(MapcycleEntry, { maxItems: 500 }), { label: 'Map cycle', default: [] }),
});

export const sections = { server: serverSection, rcon: rconSection, mapcycle: mapcycleSection };
