import { Field } from '@garrison/core';
import { DIFFICULTIES } from '../missions.js';

/** server.cfg: who joins and how (names, passwords, slots, votes, signatures, logs, voice). */
export const serverJoinFields = {
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
};
