import { configSection, Field, Type } from '@garrison/core';
import { MAX_MOD_NAME, MOD_FOLDER_PATTERN } from '../mods.js';
import { awareness, extraLines, fadeAlways, RotationEntry, writtenWhenEmpty } from './field-kinds.js';
import { serverJoinFields } from './server-join-fields.js';
import { serverNetworkFields } from './server-network-fields.js';

export { RotationEntry } from './field-kinds.js';

const serverSection = configSection({
  ...serverJoinFields,
  ...serverNetworkFields,
  extra_lines: extraLines('server.cfg'),
  written_when_empty: writtenWhenEmpty,
  missions: Field.hidden(Type.Array(RotationEntry, { maxItems: 500 }), { label: 'Mission rotation', default: [] }),
});

const basicSection = configSection({
  max_msg_send: Field.integer({
    label: 'Max messages per frame',
    description: 'The most messages the server sends per frame',
    default: 128,
    min: 1,
    max: 100000,
  }),
  max_size_guaranteed: Field.integer({
    label: 'Max guaranteed packet size',
    description: 'The largest packet sent reliably',
    default: 512,
    min: 1,
    max: 1400,
  }),
  max_size_nonguaranteed: Field.integer({
    label: 'Max non-guaranteed packet size',
    description: 'The largest packet sent without a guarantee (positions, for example)',
    default: 256,
    min: 1,
    max: 1400,
  }),
  min_bandwidth: Field.integer({
    label: 'Min bandwidth (bps)',
    description: 'The bandwidth the server assumes it always has',
    unit: 'bit/s',
    default: 800000,
    min: 1,
    max: 100_000_000_000,
  }),
  max_bandwidth: Field.integer({
    label: 'Max bandwidth (bps)',
    description: 'The most bandwidth the server uses',
    unit: 'bit/s',
    default: 10_000_000_000,
    min: 1,
    max: 100_000_000_000,
  }),
  min_error_to_send: Field.number({
    label: 'Min error to send',
    description: 'The smallest change of a far unit worth sending; lower is smoother and costs bandwidth',
    default: 0.001,
    min: 0,
    max: 1,
  }),
  min_error_to_send_near: Field.number({
    label: 'Min error to send (near)',
    description: 'The same for near units',
    default: 0.01,
    min: 0,
    max: 1,
  }),
  max_custom_file_size: Field.integer({
    label: 'Max custom file size (bytes, 0 = any)',
    description: 'Players whose custom face or sound is larger are kicked',
    unit: 'bytes',
    default: 0,
    min: 0,
    max: 100_000_000,
  }),
  max_packet_size: Field.integer({
    label: 'Max packet size',
    description: 'The largest network packet; lower it on networks that fragment',
    default: 1400,
    min: 256,
    max: 1500,
  }),
  extra_lines: extraLines('basic.cfg'),
});

const profileSection = configSection({
  reduced_damage: Field.toggle({ label: 'Reduced damage', description: 'Players take less damage', default: 0 }),
  group_indicators: awareness('Group indicators', 0, "Whether players see their group's markers"),
  friendly_tags: awareness('Friendly tags', 0, 'Whether name tags show over friendly units'),
  enemy_tags: awareness('Enemy tags', 0, 'Whether name tags show over enemies'),
  detected_mines: awareness('Detected mines', 0, 'Whether mines a player detected are marked'),
  commands: fadeAlways('Commands', 1, "Whether the squad leader's commands show on screen"),
  waypoints: fadeAlways('Waypoints', 1, 'Whether waypoints show on screen'),
  tactical_ping: Field.numberedSelect({
    label: 'Tactical ping',
    description: 'Whether players may mark places for their team',
    default: 0,
    choices: ['Disabled', '3D scene', 'Map', 'Both'],
  }),
  weapon_info: fadeAlways('Weapon info', 2, 'Whether the weapon and ammunition panel shows'),
  stance_indicator: fadeAlways('Stance indicator', 2, "Whether the player's stance shows"),
  stamina_bar: Field.toggle({ label: 'Stamina bar', description: 'Whether the stamina bar shows', default: 0 }),
  weapon_crosshair: Field.toggle({ label: 'Weapon crosshair', description: 'Whether the crosshair shows', default: 0 }),
  vision_aid: Field.toggle({ label: 'Vision aid', description: 'Whether the vision aid shows', default: 0 }),
  third_person_view: Field.numberedSelect({
    label: 'Third person view',
    description: 'Whether players may use the third-person view (and in vehicles only)',
    default: 0,
    choices: ['Disabled', 'Enabled', 'Vehicles only'],
  }),
  camera_shake: Field.toggle({ label: 'Camera shake', description: 'Whether the camera shakes with explosions and fire', default: 1 }),
  score_table: Field.toggle({ label: 'Score table', description: 'Whether players may see the score table', default: 1 }),
  death_messages: Field.toggle({ label: 'Death messages', description: 'Whether kills are announced', default: 1 }),
  von_id: Field.toggle({ label: 'Voice ID', description: 'Whether the name of who speaks shows', default: 1 }),
  map_content: Field.toggle({ label: 'Map content', description: "Whether the map shows players' positions and markers", default: 0 }),
  auto_report: Field.toggle({ label: 'Auto report', description: 'Whether players report what they see by themselves', default: 0 }),
  multiple_saves: Field.toggle({ label: 'Multiple saves', description: 'Whether players may save more than once', default: 0 }),
  ai_level_preset: Field.numberedSelect({
    label: 'AI level preset',
    description: 'How capable the AI is; Custom uses the two values below',
    default: 3,
    choices: ['Low', 'Normal', 'High', 'Custom'],
  }),
  skill_ai: Field.number({ label: 'AI skill', description: 'How well the AI fights, from 0 to 1', default: 0.5, min: 0, max: 1 }),
  precision_ai: Field.number({ label: 'AI precision', description: 'How well the AI aims, from 0 to 1', default: 0.5, min: 0, max: 1 }),
  difficulty: Field.text({
    label: 'Profile difficulty',
    description:
      "The profile's own difficulty line (the presets below are the Custom one); missions and the forced difficulty choose theirs",
    default: 'Custom',
    maxLength: 64,
    pattern: '^[A-Za-z][A-Za-z0-9_]*$',
  }),
  custom_difficulty_lines: Field.lines({
    label: 'Extra lines inside class CustomDifficulty',
    description:
      "Written inside the Custom difficulty's class as they are (displayName, levelAI…), in the game's syntax; Options, " +
      "aiLevelPreset and CustomAILevel are Garrison's fields",
    placeholder: 'levelAI = "AILevelMedium";',
    default: [],
    maxItems: 200,
  }),
  options_lines: Field.lines({
    label: 'Extra difficulty options',
    description:
      'Written inside class Options of the Custom difficulty as they are (options Garrison has no field for, ' +
      "mapContentFriendly…); the options above are Garrison's fields",
    placeholder: 'mapContentFriendly = 0;',
    default: [],
    maxItems: 200,
  }),
  extra_lines: extraLines('the profile'),
  written_when_empty: writtenWhenEmpty,
});

const EnabledModEntry = Type.Object(
  { name: Type.String({ minLength: 2, maxLength: MAX_MOD_NAME, pattern: MOD_FOLDER_PATTERN }), is_server_mod: Type.Boolean() },
  { additionalProperties: false },
);

const launchSection = configSection({
  world: Field.text({
    label: 'World to preload',
    description: 'The terrain loaded at start, before any mission (empty is the lightest)',
    default: 'empty',
    maxLength: 64,
    pattern: '^[A-Za-z0-9_]+$',
  }),
  limit_fps: Field.integer({
    label: 'FPS limit',
    description: "The server's simulation rate; higher costs CPU",
    unit: 'fps',
    default: 50,
    min: 5,
    max: 1000,
  }),
  auto_init: Field.boolean({
    label: 'Start the mission without waiting for players',
    description: 'Starts the mission at once instead of waiting in the lobby for the first player',
    default: false,
  }),
  load_mission_to_memory: Field.boolean({
    label: 'Keep the mission in memory',
    description: 'Keeps the mission file in memory instead of reading it again',
    default: false,
  }),
  enable_ht: Field.boolean({ label: 'Use hyper-threading', description: 'Lets the game use hyper-threaded cores', default: false }),
  huge_pages: Field.boolean({
    label: 'Use huge pages',
    description: 'Uses large memory pages (needs them set up on the host)',
    default: false,
  }),
  file_patching: Field.boolean({
    label: 'Allow file patching',
    description: 'Lets the server load files from outside its addons',
    default: false,
  }),
  netlog: Field.boolean({ label: 'Network log', description: 'Writes a network log (for debugging; it grows fast)', default: false }),
  max_mem: Field.integer({
    label: 'Max memory (MB, 0 = automatic)',
    description: 'Memory the game may use; 0 lets it decide',
    unit: 'MB',
    default: 0,
    min: 0,
    max: 1_048_576,
  }),
  cpu_count: Field.integer({
    label: 'CPU count (0 = automatic)',
    description: 'Cores the game uses; 0 lets it decide',
    default: 0,
    min: 0,
    max: 256,
  }),
  ex_threads: Field.integer({
    label: 'Extra threads (0 = automatic)',
    description: 'Extra threads for file operations, geometry and texture loading',
    default: 0,
    min: 0,
    max: 7,
  }),
  bandwidth_alg: Field.numberedSelect({
    label: 'Bandwidth algorithm',
    description: 'How the server estimates bandwidth; New suits most servers',
    default: 0,
    choices: ['Default', 'Legacy', 'New'],
  }),
  // Older data stored a bare list of names; it is still read (as client mods) and rewritten in the object form.
  mods: Field.hidden(
    Type.Array(Type.Union([EnabledModEntry, Type.String({ minLength: 2, maxLength: MAX_MOD_NAME, pattern: MOD_FOLDER_PATTERN })]), {
      maxItems: 200,
    }),
    {
      label: 'Enabled mods',
      default: [],
    },
  ),
});

/** BattlEye allows at most 32 letters and digits in an RCon password. */
const RCON_PASSWORD_PATTERN = '^[A-Za-z0-9]{0,32}$';

const rconSection = configSection({
  // Garrison's own way into the game (players, kicks, a clean stop): replaced, never cleared, in the console.
  rcon_password: Field.password({
    label: 'RCon password',
    description: 'The BattlEye RCon password Garrison uses to talk to the game (letters and digits, 32 at most)',
    default: '',
    maxLength: 32,
    pattern: RCON_PASSWORD_PATTERN,
    clearable: false,
  }),
  rcon_port: Field.integer({
    label: 'RCon port',
    description: 'UDP port of BattlEye RCon; the server record holds it',
    default: 2305,
    min: 1024,
    max: 65535,
  }),
  max_ping: Field.integer({
    label: 'Max ping before kick (ms, -1 = no limit)',
    description: 'Players whose ping stays above this are kicked',
    unit: 'ms',
    default: 200,
    min: -1,
    max: 100000,
  }),
  enabled: Field.toggle({
    label: 'RCon enabled',
    description: 'Without RCon, Garrison cannot list players, kick, ban or stop the game cleanly',
    default: 1,
  }),
});

export const sections = {
  server: serverSection,
  basic: basicSection,
  profile: profileSection,
  launch: launchSection,
  rcon: rconSection,
};
