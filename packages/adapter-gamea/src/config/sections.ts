import { configSection, Field, Type } from '@garrison/core';
import { DIFFICULTIES, MAX_MISSION_NAME, MISSION_NAME_PATTERN, RotationDifficulty } from '../missions.js';
import { MAX_MOD_NAME, MOD_FOLDER_PATTERN } from '../mods.js';

/**
 * The gamea dedicated server's settings, grouped as the spec's five sections. Field names are the
 * spec's snake_case; render.ts maps them onto the game's own keys. Defaults follow the game's
 * documented defaults except where the spec's samples say otherwise.
 */

export const RotationEntry = Type.Object(
  {
    name: Type.String({ minLength: 3, maxLength: MAX_MISSION_NAME, pattern: MISSION_NAME_PATTERN }),
    difficulty: RotationDifficulty,
  },
  { additionalProperties: false },
);

const script = (label: string, def = '', description?: string) =>
  Field.text({ label, description, default: def, maxLength: 1024, placeholder: 'kick (_this select 0)' });
const seconds = (label: string, def: number, description?: string, max = 3600) =>
  Field.integer({ label, description, unit: 's', default: def, min: 0, max });
const awareness = (label: string, def: number, description?: string) =>
  Field.numberedSelect({ label, description, default: def, choices: ['Never', 'Limited distance', 'Always'] });
const fadeAlways = (label: string, def: number, description?: string) =>
  Field.numberedSelect({ label, description, default: def, choices: ['Never', 'Fade out', 'Always'] });
const kickTimeout = (label: string, def: number, description?: string) =>
  Field.integer({ label, description, default: def, min: -2, max: 86_400 });
const extensions = (label: string, description?: string) =>
  Field.tags({ label, description, default: [], itemPattern: '^[A-Za-z0-9]{1,16}$', maxItems: 100 });
/**
 * Keys an imported file wrote with the value Garrison otherwise leaves out (`missionWhitelist[] = {};`,
 * `missionsToShutdown = 0;`): written even then, so that the file says what the original said.
 */
const writtenWhenEmpty = Field.hidden(Type.Array(Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$' }), { maxItems: 100 }), {
  label: 'Keys written even when empty',
  default: [],
});
/** Raw lines for what Garrison has no field for, appended to the file as written (checked first, see extra-lines.ts). */
const extraLines = (file: string) =>
  Field.lines({
    label: `Extra lines for ${file}`,
    description:
      `Written at the end of ${file} as they are: settings Garrison has no field for, in the game's syntax (key = value;). A ` +
      `key Garrison writes itself is refused: use its field.`,
    placeholder: 'allowedVoteCmds[] = {};',
    default: [],
    maxItems: 500,
  });

const serverSection = configSection({
  hostname: Field.text({
    label: 'Server name',
    description: "The server's name in the game's server browser",
    default: 'Garrison Server',
    maxLength: 256,
  }),
  password: Field.password({ label: 'Join password', description: 'Players must type it to join; empty lets anyone join', default: '' }),
  password_admin: Field.password({
    label: 'Admin password',
    description: 'Typed in game after #login to become the admin (mission selection, kicks)',
    default: '',
  }),
  server_command_password: Field.password({
    label: 'Server command password',
    description: 'Lets mission scripts run server commands (serverCommand); keep it secret',
    default: '',
  }),
  max_players: Field.integer({
    label: 'Max players',
    description: 'Slots on the server; players beyond it wait in the server browser',
    default: 40,
    min: 1,
    max: 1000,
  }),
  motd_lines: Field.lines({
    label: 'Message of the day',
    description: 'Shown one after another in the chat when a player joins, one line each',
    default: [],
  }),
  motd_interval: Field.number({
    label: 'Seconds between MOTD lines',
    description: 'How long each message-of-the-day line stays before the next',
    unit: 's',
    default: 5,
    min: 0,
    max: 3600,
  }),
  admin_uids: Field.tags({
    label: 'Admin UIDs',
    description: 'Steam IDs (64-bit) that may #login without the admin password',
    default: [],
    itemPattern: '^[0-9]{1,20}$',
  }),
  headless_clients: Field.tags({
    label: 'Headless client IPs',
    description: 'Addresses headless clients connect from; Garrison fills it for its own',
    default: [],
  }),
  local_client: Field.tags({
    label: 'Local client IPs',
    description: 'Addresses whose clients get unlimited bandwidth (headless clients on this machine)',
    default: [],
  }),
  vote_mission_players: Field.integer({
    label: 'Players needed to vote a mission',
    description: 'How many players must be on before the mission vote starts on its own',
    default: 1,
    min: 0,
    max: 1000,
  }),
  vote_threshold: Field.number({
    label: 'Vote threshold',
    description: 'Share of players that must agree for a vote to pass (0.33 is a third)',
    default: 0.33,
    min: 0,
    max: 1,
  }),
  kick_duplicate: Field.toggle({
    label: 'Kick duplicate IDs',
    description: 'Kicks a player who joins with an ID already on the server',
    default: 1,
  }),
  verify_signatures: Field.numberedSelect({
    label: 'Verify signatures',
    description: 'Checks the signatures of the addons players load; 2 refuses unsigned or changed files',
    default: 2,
    choices: ['Off', 'Reserved', 'Version 2 signatures'],
  }),
  allowed_file_patching: Field.numberedSelect({
    label: 'Allowed file patching',
    description: 'Who may load files from outside the addons (file patching); 0 is nobody',
    default: 0,
    choices: ['None', 'Headless clients', 'All'],
  }),
  anticheat: Field.toggle({ label: 'BattlEye anti-cheat', description: 'BattlEye anti-cheat; RCon needs it on', default: 1 }),
  persistent: Field.toggle({
    label: 'Persistent (keep running without players)',
    description: 'Keeps the mission running when the last player leaves',
    default: 1,
  }),
  time_stamp_format: Field.select({
    label: 'Log time stamps',
    description: 'What the game writes before each line of its .rpt log',
    default: 'short',
    choices: ['none', 'short', 'full'] as const,
  }),
  log_file: Field.text({
    label: 'Console log file',
    description: "The file the game's console output also goes to, in its profile folder",
    default: 'server_console.log',
    maxLength: 255,
    pattern: '^[A-Za-z0-9_.\\-]*$',
  }),
  forced_difficulty: Field.numberedSelect({
    label: 'Forced difficulty',
    description: "Overrides the missions' difficulty for everyone",
    default: 1,
    choices: [...DIFFICULTIES],
  }),
  disable_von: Field.toggle({ label: 'Disable voice over net', description: 'Turns voice chat off for everyone', default: 0 }),
  von_codec: Field.numberedSelect({
    label: 'Voice codec',
    description: 'The voice codec: OPUS sounds better than SPEEX',
    default: 1,
    choices: ['SPEEX', 'OPUS'],
  }),
  von_codec_quality: Field.integer({
    label: 'Voice codec quality',
    description: 'Voice quality (1 to 30); higher costs bandwidth',
    default: 30,
    min: 1,
    max: 30,
  }),
  disconnect_timeout: Field.integer({
    label: 'Disconnect time-out (s)',
    description: 'How long a player who lost the connection is waited for before being dropped',
    unit: 's',
    default: 5,
    min: 5,
    max: 90,
  }),
  max_desync: Field.integer({
    label: 'Max desync',
    description: 'Players whose desync exceeds this are kicked',
    default: 150,
    min: 0,
    max: 100000,
  }),
  max_ping: Field.integer({
    label: 'Max ping (ms)',
    description: 'Players whose ping stays above this are kicked',
    unit: 'ms',
    default: 200,
    min: 0,
    max: 100000,
  }),
  max_packet_loss: Field.integer({
    label: 'Max packet loss (%)',
    description: 'Players losing more packets than this are kicked',
    default: 50,
    min: 0,
    max: 100,
  }),
  kick_on_slow_network: Field.toggle({
    label: 'Kick clients on slow network',
    description: 'Kicks players whose connection is too slow, instead of only warning them',
    default: 0,
  }),
  kick_on_slow_network_checks: Field.tags({
    label: 'Kick on slow network, check by check (empty: the toggle above for all four)',
    description:
      'One 0 (log) or 1 (kick) for each of max ping, max packet loss, max desync and disconnect time-out, in that order; when ' +
      'set, written as it is instead of the toggle',
    default: [],
    itemPattern: '^[01]$',
    maxItems: 4,
  }),
  lobby_idle_timeout: seconds('Lobby idle time-out (s)', 300, 'How long a player may stay in the lobby before being kicked'),
  voting_timeout: seconds('Voting time-out (s)', 60, 'How long a mission vote lasts'),
  role_timeout: seconds('Role selection time-out (s)', 90, 'How long players have to pick a role before the mission starts'),
  briefing_timeout: seconds('Briefing time-out (s)', 60, 'How long the briefing lasts before the mission starts'),
  debriefing_timeout: seconds('Debriefing time-out (s)', 45, 'How long the debriefing lasts before the next mission'),
  random_mission_order: Field.toggle({ label: 'Random mission order', description: 'Plays the rotation in a random order', default: 0 }),
  auto_select_mission: Field.toggle({
    label: 'Auto-select mission',
    description: 'Starts the first mission of the rotation without an admin choosing',
    default: 1,
  }),
  skip_lobby: Field.toggle({
    label: 'Skip lobby',
    description: 'Players go straight into the mission, past the role selection',
    default: 0,
  }),
  upnp: Field.toggle({ label: 'UPnP', description: 'Lets the game open its ports on a router by UPnP; leave off on a server', default: 0 }),
  loopback: Field.toggle({ label: 'Loopback (LAN only)', description: 'Only players on the local network can join', default: 0 }),
  statistics_enabled: Field.toggle({ label: 'Statistics', description: "Sends anonymous statistics to the game's makers", default: 1 }),
  allow_profile_glasses: Field.toggle({
    label: 'Allow profile glasses',
    description: 'Lets players wear the glasses of their profile',
    default: 1,
  }),
  drawing_in_map: Field.toggle({ label: 'Drawing in map', description: 'Lets players draw on the map', default: 1 }),
  zeus_composition_script_level: Field.numberedSelect({
    label: 'Zeus composition scripts',
    description: 'Which Zeus compositions may carry scripts',
    default: 0,
    choices: ['None', 'Init only', 'All'],
  }),
  on_user_connected: script('On user connected', '', 'Script run when a player connects'),
  on_user_disconnected: script('On user disconnected', '', 'Script run when a player disconnects'),
  double_id_detected: script('On duplicate ID', '', 'Script run when two players have the same ID'),
  on_unsigned_data: script('On unsigned data', 'kick (_this select 0)', 'Script run when a player loads unsigned data (kick by default)'),
  on_hacked_data: script('On hacked data', 'kick (_this select 0)', 'Script run when a player loads modified data (kick by default)'),
  on_different_data: script('On different data', '', 'Script run when a player has other data than the server'),
  on_user_kicked: script('On user kicked', '', 'Script run when a player is kicked'),
  regular_check: script('Regular check (written only when set)', '', 'Script the game runs regularly to check players'),
  battleye_license: Field.toggle({
    label: 'Accept the BattlEye licence',
    description: "Accepting BattlEye's licence is needed for BattlEye (and RCon) to run",
    default: 0,
  }),
  file_patching_exceptions: Field.tags({
    label: 'UIDs allowed to file-patch',
    description: 'Steam IDs allowed to use file patching whatever the setting above',
    default: [],
    itemPattern: '^[0-9]{1,20}$',
  }),
  kick_timeout_manual: kickTimeout(
    'Manual kick: time out (s; -1 until the mission restarts, -2 until the server restarts)',
    -1,
    'How long a player kicked by an admin must wait to rejoin',
  ),
  kick_timeout_console: kickTimeout(
    'Console kick: time out (s)',
    180,
    'How long a player kicked from the console or RCon must wait to rejoin',
  ),
  kick_timeout_battleye: kickTimeout('BattlEye kick: time out (s)', 180, 'How long a player kicked by BattlEye must wait to rejoin'),
  kick_timeout_harmless: kickTimeout(
    'Harmless kick (wrong addons…): time out (s)',
    180,
    'How long a player kicked for a harmless reason (wrong addons) must wait',
  ),
  disable_text_channels: Field.tags({
    label: 'Channels without text chat (0 Global … 6 System)',
    description: 'Chat channels in which text is off',
    default: [],
    itemPattern: '^[0-6]$',
    maxItems: 7,
  }),
  disable_voice_channels: Field.tags({
    label: 'Channels without voice (0 Global … 6 System)',
    description: 'Chat channels in which voice is off',
    default: [],
    itemPattern: '^[0-6]$',
    maxItems: 7,
  }),
  mission_whitelist: Field.tags({
    label: 'Missions players may vote for (empty: any)',
    description: 'Missions players may vote for; empty allows every mission on the server',
    default: [],
    itemPattern: MISSION_NAME_PATTERN,
  }),
  missions_to_server_restart: Field.integer({
    label: 'Restart the server after this many missions (0: never)',
    description: 'Restarts the server process after this many missions',
    default: 0,
    min: 0,
    max: 1000,
  }),
  missions_to_shutdown: Field.integer({
    label: 'Shut the server down after this many missions (0: never)',
    description: 'Shuts the server down after this many missions (Garrison sees an exit)',
    default: 0,
    min: 0,
    max: 1000,
  }),
  force_rotor_lib_simulation: Field.numberedSelect({
    label: 'Helicopter flight model',
    description: 'Forces the advanced or the basic helicopter flight model, or leaves it to each player',
    default: 0,
    choices: ["Player's choice", 'Advanced', 'Standard'],
  }),
  required_build: Field.integer({
    label: 'Oldest game build allowed to join (0: any)',
    description: 'Refuses players whose game is older than this build',
    default: 0,
    min: 0,
    max: 100_000_000,
  }),
  steam_protocol_max_data_size: Field.integer({
    label: 'Steam query answer size limit (bytes)',
    description: "Size limit of the answer to Steam's server queries (mods lists can be long)",
    unit: 'bytes',
    default: 1024,
    min: 0,
    max: 65_535,
  }),
  allowed_load_file_extensions: extensions(
    'File extensions loadFile may read (empty: the game default)',
    'File types scripts may read with loadFile',
  ),
  allowed_preprocess_file_extensions: extensions(
    'File extensions scripts may preprocess (empty: the game default)',
    'File types scripts may preprocess',
  ),
  allowed_html_load_extensions: extensions(
    'File extensions the HTML viewer may load (empty: the game default)',
    'File types the in-game HTML viewer may open',
  ),
  advanced_log_object_not_found: Field.boolean({
    label: 'Log objects not found',
    description: 'Logs every object a mission asks for that does not exist',
    default: true,
  }),
  advanced_skip_description_parsing: Field.boolean({
    label: 'Skip description.ext parsing',
    description: "Skips reading the missions' description.ext (faster, some missions break)",
    default: false,
  }),
  advanced_ignore_mission_load_errors: Field.boolean({
    label: 'Start missions despite load errors',
    description: 'Starts a mission even when it has load errors',
    default: false,
  }),
  advanced_queue_size_log_g: Field.integer({
    label: "Log a client's message queue past (bytes)",
    description: 'Logs a client whose message queue grows past this size',
    unit: 'bytes',
    default: 1_000_000,
    min: 0,
    max: 1_000_000_000,
  }),
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
