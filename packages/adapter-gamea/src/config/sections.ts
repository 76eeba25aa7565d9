import { configSection, Field, Type } from '@garrison/core';
import { MAX_MISSION_NAME, MISSION_NAME_PATTERN } from '../missions.js';
import { MAX_MOD_NAME, MOD_FOLDER_PATTERN } from '../mods.js';

/**
 * The gamea dedicated server's settings, grouped as the spec's five sections. Field names are the
 * spec's snake_case; render.ts maps them onto the game's own keys. Defaults follow the game's
 * documented defaults except where the spec's samples say otherwise.
 */

const DIFFICULTIES = ['Recruit', 'Regular', 'Veteran', 'Custom'] as const;
export const ROTATION_DIFFICULTIES = ['', ...DIFFICULTIES] as const;


export const RotationEntry = Type.Object(
  {
    name: Type.String({ minLength: 3, maxLength: MAX_MISSION_NAME, pattern: MISSION_NAME_PATTERN }),
    difficulty: Type.Union(ROTATION_DIFFICULTIES.map((d) => Type.Literal(d))),
  },
  { additionalProperties: false },
);

const script = (label: string, def = '') => Field.text({ label, default: def, maxLength: 1024, placeholder: 'kick (_this select 0)' });
const seconds = (label: string, def: number, max = 3600) => Field.integer({ label, default: def, min: 0, max });
const awareness = (label: string, def: number) =>
  Field.numberedSelect({ label, default: def, choices: ['Never', 'Limited distance', 'Always'] });
const fadeAlways = (label: string, def: number) => Field.numberedSelect({ label, default: def, choices: ['Never', 'Fade out', 'Always'] });
const kickTimeout = (label: string, def: number) => Field.integer({ label, default: def, min: -2, max: 86_400 });
const extensions = (label: string) => Field.tags({ label, default: [], itemPattern: '^[A-Za-z0-9]{1,16}$', maxItems: 100 });
/** Raw lines for what Garrison has no field for, appended to the file as written (checked first, see extra-lines.ts). */
const extraLines = (file: string) =>
  Field.lines({
    label: `Extra lines for ${file}`,
    description: `Written at the end of ${file} as they are: settings Garrison has no field for, in the game's syntax (key = value;). A key Garrison writes itself is refused: use its field.`,
    placeholder: 'allowedVoteCmds[] = {};',
    default: [],
    maxItems: 500,
  });

export const serverSection = configSection({
  hostname: Field.text({ label: 'Server name', description: 'The server\'s name in the game\'s server browser', default: 'Garrison Server', maxLength: 256 }),
  password: Field.password({ label: 'Join password', description: 'Players must type it to join; empty lets anyone join', default: '' }),
  password_admin: Field.password({ label: 'Admin password', description: 'Typed in game after #login to become the admin (mission selection, kicks)', default: '' }),
  server_command_password: Field.password({ label: 'Server command password', description: 'Lets mission scripts run server commands (serverCommand); keep it secret', default: '' }),
  max_players: Field.integer({ label: 'Max players', description: 'Slots on the server; players beyond it wait in the server browser', default: 40, min: 1, max: 1000 }),
  motd_lines: Field.lines({ label: 'Message of the day', description: 'Shown one after another in the chat when a player joins, one line each', default: [] }),
  motd_interval: Field.number({ label: 'Seconds between MOTD lines', description: 'How long each message-of-the-day line stays before the next', unit: 's', default: 5, min: 0, max: 3600 }),
  admin_uids: Field.tags({ label: 'Admin UIDs', description: 'Steam IDs (64-bit) that may #login without the admin password', default: [], itemPattern: '^[0-9]{1,20}$' }),
  headless_clients: Field.tags({ label: 'Headless client IPs', description: 'Addresses headless clients connect from; Garrison fills it for its own', default: [] }),
  local_client: Field.tags({ label: 'Local client IPs', description: 'Addresses whose clients get unlimited bandwidth (headless clients on this machine)', default: [] }),
  vote_mission_players: Field.integer({ label: 'Players needed to vote a mission', description: 'How many players must be on before the mission vote starts on its own', default: 1, min: 0, max: 1000 }),
  vote_threshold: Field.number({ label: 'Vote threshold', description: 'Share of players that must agree for a vote to pass (0.33 is a third)', default: 0.33, min: 0, max: 1 }),
  kick_duplicate: Field.toggle({ label: 'Kick duplicate IDs', description: 'Kicks a player who joins with an ID already on the server', default: 1 }),
  verify_signatures: Field.numberedSelect({ label: 'Verify signatures', description: 'Checks the signatures of the addons players load; 2 refuses unsigned or changed files', default: 2, choices: ['Off', 'Reserved', 'Version 2 signatures'] }),
  allowed_file_patching: Field.numberedSelect({ label: 'Allowed file patching', default: 0, choices: ['None', 'Headless clients', 'All'] }),
  anticheat: Field.toggle({ label: 'BattlEye anti-cheat', description: 'BattlEye anti-cheat; RCon needs it on', default: 1 }),
  persistent: Field.toggle({ label: 'Persistent (keep running without players)', description: 'Keeps the mission running when the last player leaves', default: 1 }),
  time_stamp_format: Field.select({ label: 'Log time stamps', description: 'What the game writes before each line of its .rpt log', default: 'short', choices: ['none', 'short', 'full'] as const }),
  log_file: Field.text({ label: 'Console log file', default: 'server_console.log', maxLength: 255, pattern: '^[A-Za-z0-9_.\\-]*$' }),
  forced_difficulty: Field.numberedSelect({ label: 'Forced difficulty', description: 'Overrides the missions\' difficulty for everyone', default: 1, choices: [...DIFFICULTIES] }),
  disable_von: Field.toggle({ label: 'Disable voice over net', description: 'Turns voice chat off for everyone', default: 0 }),
  von_codec: Field.numberedSelect({ label: 'Voice codec', default: 1, choices: ['SPEEX', 'OPUS'] }),
  von_codec_quality: Field.integer({ label: 'Voice codec quality', default: 30, min: 1, max: 30 }),
  disconnect_timeout: Field.integer({ label: 'Disconnect time-out (s)', default: 5, min: 5, max: 90 }),
  max_desync: Field.integer({ label: 'Max desync', description: 'Players whose desync exceeds this are kicked', default: 150, min: 0, max: 100000 }),
  max_ping: Field.integer({ label: 'Max ping (ms)', description: 'Players whose ping stays above this are kicked', unit: 'ms', default: 200, min: 0, max: 100000 }),
  max_packet_loss: Field.integer({ label: 'Max packet loss (%)', description: 'Players losing more packets than this are kicked', default: 50, min: 0, max: 100 }),
  kick_on_slow_network: Field.toggle({ label: 'Kick clients on slow network', default: 0 }),
  lobby_idle_timeout: seconds('Lobby idle time-out (s)', 300),
  voting_timeout: seconds('Voting time-out (s)', 60),
  role_timeout: seconds('Role selection time-out (s)', 90),
  briefing_timeout: seconds('Briefing time-out (s)', 60),
  debriefing_timeout: seconds('Debriefing time-out (s)', 45),
  random_mission_order: Field.toggle({ label: 'Random mission order', description: 'Plays the rotation in a random order', default: 0 }),
  auto_select_mission: Field.toggle({ label: 'Auto-select mission', description: 'Starts the first mission of the rotation without an admin choosing', default: 1 }),
  skip_lobby: Field.toggle({ label: 'Skip lobby', description: 'Players go straight into the mission, past the role selection', default: 0 }),
  upnp: Field.toggle({ label: 'UPnP', default: 0 }),
  loopback: Field.toggle({ label: 'Loopback (LAN only)', description: 'Only players on the local network can join', default: 0 }),
  statistics_enabled: Field.toggle({ label: 'Statistics', default: 1 }),
  allow_profile_glasses: Field.toggle({ label: 'Allow profile glasses', default: 1 }),
  drawing_in_map: Field.toggle({ label: 'Drawing in map', default: 1 }),
  zeus_composition_script_level: Field.numberedSelect({ label: 'Zeus composition scripts', default: 0, choices: ['None', 'Init only', 'All'] }),
  on_user_connected: script('On user connected'),
  on_user_disconnected: script('On user disconnected'),
  double_id_detected: script('On duplicate ID'),
  on_unsigned_data: script('On unsigned data', 'kick (_this select 0)'),
  on_hacked_data: script('On hacked data', 'kick (_this select 0)'),
  on_different_data: script('On different data'),
  on_user_kicked: script('On user kicked'),
  regular_check: script('Regular check (written only when set)'),
  battleye_license: Field.toggle({ label: 'Accept the BattlEye licence', description: 'Accepting BattlEye\'s licence is needed for BattlEye (and RCon) to run', default: 0 }),
  file_patching_exceptions: Field.tags({ label: 'UIDs allowed to file-patch', default: [], itemPattern: '^[0-9]{1,20}$' }),
  kick_timeout_manual: kickTimeout('Manual kick: time out (s; -1 until the mission restarts, -2 until the server restarts)', -1),
  kick_timeout_console: kickTimeout('Console kick: time out (s)', 180),
  kick_timeout_battleye: kickTimeout('BattlEye kick: time out (s)', 180),
  kick_timeout_harmless: kickTimeout('Harmless kick (wrong addons…): time out (s)', 180),
  disable_text_channels: Field.tags({ label: 'Channels without text chat (0 Global … 6 System)', default: [], itemPattern: '^[0-6]$', maxItems: 7 }),
  disable_voice_channels: Field.tags({ label: 'Channels without voice (0 Global … 6 System)', default: [], itemPattern: '^[0-6]$', maxItems: 7 }),
  mission_whitelist: Field.tags({ label: 'Missions players may vote for (empty: any)', default: [], itemPattern: MISSION_NAME_PATTERN }),
  missions_to_server_restart: Field.integer({ label: 'Restart the server after this many missions (0: never)', description: 'Restarts the server process after this many missions', default: 0, min: 0, max: 1000 }),
  missions_to_shutdown: Field.integer({ label: 'Shut the server down after this many missions (0: never)', description: 'Shuts the server down after this many missions (Garrison sees an exit)', default: 0, min: 0, max: 1000 }),
  force_rotor_lib_simulation: Field.numberedSelect({ label: 'Helicopter flight model', default: 0, choices: ["Player's choice", 'Advanced', 'Standard'] }),
  required_build: Field.integer({ label: 'Oldest game build allowed to join (0: any)', default: 0, min: 0, max: 100_000_000 }),
  steam_protocol_max_data_size: Field.integer({ label: 'Steam query answer size limit (bytes)', default: 1024, min: 0, max: 65_535 }),
  allowed_load_file_extensions: extensions('File extensions loadFile may read (empty: the game default)'),
  allowed_preprocess_file_extensions: extensions('File extensions scripts may preprocess (empty: the game default)'),
  allowed_html_load_extensions: extensions('File extensions the HTML viewer may load (empty: the game default)'),
  advanced_log_object_not_found: Field.boolean({ label: 'Log objects not found', default: true }),
  advanced_skip_description_parsing: Field.boolean({ label: 'Skip description.ext parsing', default: false }),
  advanced_ignore_mission_load_errors: Field.boolean({ label: 'Start missions despite load errors', default: false }),
  advanced_queue_size_log_g: Field.integer({ label: 'Log a client\'s message queue past (bytes)', default: 1_000_000, min: 0, max: 1_000_000_000 }),
  extra_lines: extraLines('server.cfg'),
  missions: Field.hidden(Type.Array(RotationEntry, { maxItems: 500 }), { label: 'Mission rotation', default: [] }),
});

export const basicSection = configSection({
  max_msg_send: Field.integer({ label: 'Max messages per frame', default: 128, min: 1, max: 100000 }),
  max_size_guaranteed: Field.integer({ label: 'Max guaranteed packet size', default: 512, min: 1, max: 1400 }),
  max_size_nonguaranteed: Field.integer({ label: 'Max non-guaranteed packet size', default: 256, min: 1, max: 1400 }),
  min_bandwidth: Field.integer({ label: 'Min bandwidth (bps)', description: 'The bandwidth the server assumes it always has', unit: 'bit/s', default: 800000, min: 1, max: 100_000_000_000 }),
  max_bandwidth: Field.integer({ label: 'Max bandwidth (bps)', description: 'The most bandwidth the server uses', unit: 'bit/s', default: 10_000_000_000, min: 1, max: 100_000_000_000 }),
  min_error_to_send: Field.number({ label: 'Min error to send', default: 0.001, min: 0, max: 1 }),
  min_error_to_send_near: Field.number({ label: 'Min error to send (near)', default: 0.01, min: 0, max: 1 }),
  max_custom_file_size: Field.integer({ label: 'Max custom file size (bytes, 0 = any)', default: 0, min: 0, max: 100_000_000 }),
  max_packet_size: Field.integer({ label: 'Max packet size', default: 1400, min: 256, max: 1500 }),
  extra_lines: extraLines('basic.cfg'),
});

export const profileSection = configSection({
  reduced_damage: Field.toggle({ label: 'Reduced damage', default: 0 }),
  group_indicators: awareness('Group indicators', 0),
  friendly_tags: awareness('Friendly tags', 0),
  enemy_tags: awareness('Enemy tags', 0),
  detected_mines: awareness('Detected mines', 0),
  commands: fadeAlways('Commands', 1),
  waypoints: fadeAlways('Waypoints', 1),
  tactical_ping: Field.numberedSelect({ label: 'Tactical ping', default: 0, choices: ['Disabled', '3D scene', 'Map', 'Both'] }),
  weapon_info: fadeAlways('Weapon info', 2),
  stance_indicator: fadeAlways('Stance indicator', 2),
  stamina_bar: Field.toggle({ label: 'Stamina bar', default: 0 }),
  weapon_crosshair: Field.toggle({ label: 'Weapon crosshair', default: 0 }),
  vision_aid: Field.toggle({ label: 'Vision aid', default: 0 }),
  third_person_view: Field.numberedSelect({ label: 'Third person view', default: 0, choices: ['Disabled', 'Enabled', 'Vehicles only'] }),
  camera_shake: Field.toggle({ label: 'Camera shake', default: 1 }),
  score_table: Field.toggle({ label: 'Score table', default: 1 }),
  death_messages: Field.toggle({ label: 'Death messages', default: 1 }),
  von_id: Field.toggle({ label: 'Voice ID', default: 1 }),
  map_content: Field.toggle({ label: 'Map content', default: 0 }),
  auto_report: Field.toggle({ label: 'Auto report', default: 0 }),
  multiple_saves: Field.toggle({ label: 'Multiple saves', default: 0 }),
  ai_level_preset: Field.numberedSelect({ label: 'AI level preset', default: 3, choices: ['Low', 'Normal', 'High', 'Custom'] }),
  skill_ai: Field.number({ label: 'AI skill', description: 'How well the AI fights, from 0 to 1', default: 0.5, min: 0, max: 1 }),
  precision_ai: Field.number({ label: 'AI precision', description: 'How well the AI aims, from 0 to 1', default: 0.5, min: 0, max: 1 }),
  extra_lines: extraLines('the profile'),
});


export const EnabledModEntry = Type.Object(
  { name: Type.String({ minLength: 2, maxLength: MAX_MOD_NAME, pattern: MOD_FOLDER_PATTERN }), is_server_mod: Type.Boolean() },
  { additionalProperties: false },
);

export const launchSection = configSection({
  world: Field.text({ label: 'World to preload', default: 'empty', maxLength: 64, pattern: '^[A-Za-z0-9_]+$' }),
  limit_fps: Field.integer({ label: 'FPS limit', description: 'The server\'s simulation rate; higher costs CPU', unit: 'fps', default: 50, min: 5, max: 1000 }),
  auto_init: Field.boolean({ label: 'Start the mission without waiting for players', description: 'Starts the mission at once instead of waiting in the lobby for the first player', default: false }),
  load_mission_to_memory: Field.boolean({ label: 'Keep the mission in memory', default: false }),
  enable_ht: Field.boolean({ label: 'Use hyper-threading', default: false }),
  huge_pages: Field.boolean({ label: 'Use huge pages', default: false }),
  file_patching: Field.boolean({ label: 'Allow file patching', default: false }),
  netlog: Field.boolean({ label: 'Network log', default: false }),
  max_mem: Field.integer({ label: 'Max memory (MB, 0 = automatic)', description: 'Memory the game may use; 0 lets it decide', unit: 'MB', default: 0, min: 0, max: 1_048_576 }),
  cpu_count: Field.integer({ label: 'CPU count (0 = automatic)', description: 'Cores the game uses; 0 lets it decide', default: 0, min: 0, max: 256 }),
  ex_threads: Field.integer({ label: 'Extra threads (0 = automatic)', default: 0, min: 0, max: 7 }),
  bandwidth_alg: Field.numberedSelect({ label: 'Bandwidth algorithm', default: 0, choices: ['Default', 'Legacy', 'New'] }),
  // Older data stored a bare list of names; it is still read (as client mods) and rewritten in the object form.
  mods: Field.hidden(Type.Array(Type.Union([EnabledModEntry, Type.String({ minLength: 2, maxLength: MAX_MOD_NAME, pattern: MOD_FOLDER_PATTERN })]), { maxItems: 200 }), {
    label: 'Enabled mods',
    default: [],
  }),
});

/** BattlEye allows at most 32 letters and digits in an RCon password. */
export const RCON_PASSWORD_PATTERN = '^[A-Za-z0-9]{0,32}$';

export const rconSection = configSection({
  rcon_password: Field.password({ label: 'RCon password', description: 'The BattlEye RCon password Garrison uses to talk to the game (letters and digits, 32 at most)', default: '', maxLength: 32, pattern: RCON_PASSWORD_PATTERN }),
  rcon_port: Field.integer({ label: 'RCon port', description: 'UDP port of BattlEye RCon; the server record holds it', default: 2305, min: 1024, max: 65535 }),
  max_ping: Field.integer({ label: 'Max ping before kick (ms, -1 = no limit)', description: 'Players whose ping stays above this are kicked', unit: 'ms', default: 200, min: -1, max: 100000 }),
  enabled: Field.toggle({ label: 'RCon enabled', description: 'Without RCon, Garrison cannot list players, kick, ban or stop the game cleanly', default: 1 }),
});

export const sections = {
  server: serverSection,
  basic: basicSection,
  profile: profileSection,
  launch: launchSection,
  rcon: rconSection,
};
