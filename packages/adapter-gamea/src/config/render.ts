import type { ConfigValues, RenderedFile, ServerContext } from '@garrison/core';
import { ConfigWriter, type Value } from './syntax.js';
import { layout } from '../layout.js';
import { PROFILE_CLASSES, PROFILE_KEYS } from './profile.js';
import { DIFFICULTIES, DIFFICULTY_NAMES } from '../missions.js';

export { PROFILE_OPTIONS } from './profile.js';

const HEADER = 'Written by Garrison: edit the settings in Garrison, changes made here are overwritten on the next start.';
const EXTRA_HEADER = "Extra lines, written as they were given in Garrison's extra_lines field:";

export type Section = Record<string, unknown>;
const num = (s: Section, k: string) => s[k] as number;
const str = (s: Section, k: string) => s[k] as string;
const list = (s: Section, k: string) => (s[k] as string[] | undefined) ?? [];

/**
 * One key of a generated file and the field(s) it comes from. A key with `when` is written only then
 * (left out, the game keeps its own default); `value` builds what the field alone does not say, and
 * `read` undoes it for a file being imported: the fields' values, or why the file's value cannot be read.
 */
export interface Key {
  key: string;
  fields: string[];
  array?: boolean;
  when?: (s: Section) => boolean;
  value?: (s: Section, options: RenderOptions) => Value;
  read?: (value: unknown) => Record<string, unknown> | string;
}
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
const truthy = (v: unknown) => (typeof v === 'boolean' ? v : typeof v === 'number' ? v !== 0 : /^(true|1)$/i.test(String(v)));
const KICK_TIMEOUT_FIELDS = ['kick_timeout_manual', 'kick_timeout_console', 'kick_timeout_battleye', 'kick_timeout_harmless'];
const scalar = (key: string, field: string): Key => ({ key, fields: [field] });
const array = (key: string, field: string, when?: Key['when']): Key => ({ key, fields: [field], array: true, ...(when ? { when } : {}) });
/** What a file says beyond the config: the headless clients the server runs on this host. */
export interface RenderOptions {
  headlessClients?: number;
}
/** Headless clients run on this host: with any, the host's address is among the trusted ones. */
const withLocalHost = (s: Section, field: string, options: RenderOptions) => {
  const listed = list(s, field);
  return (options.headlessClients ?? 0) > 0 && !listed.includes('127.0.0.1') ? [...listed, '127.0.0.1'] : listed;
};
/** Keys an imported file had with the value Garrison otherwise leaves out: written all the same. */
const writtenWhenEmpty = (s: Section) => new Set(list(s, 'written_when_empty').map((k) => k.toLowerCase()));
const nonEmpty = (field: string) => (s: Section) => list(s, field).length > 0;
const positive = (field: string) => (s: Section) => num(s, field) > 0;

/** A class written from fields, in one piece: `class Name { … };`. */
export interface ClassBlock {
  className: string;
  fields: string[];
  write(w: ConfigWriter, s: Section): void;
  /** For an import: each key of the class as written (lower case) → its field. */
  read?: Readonly<Record<string, string>>;
}

const SERVER_KEYS: Key[] = [
  scalar('hostname', 'hostname'),
  scalar('password', 'password'),
  scalar('passwordAdmin', 'password_admin'),
  scalar('serverCommandPassword', 'server_command_password'),
  scalar('maxPlayers', 'max_players'),
  array('motd', 'motd_lines'),
  scalar('motdInterval', 'motd_interval'),
  array('admins', 'admin_uids'),
  { key: 'headlessClients', fields: ['headless_clients'], array: true, value: (s, o) => withLocalHost(s, 'headless_clients', o) },
  { key: 'localClient', fields: ['local_client'], array: true, value: (s, o) => withLocalHost(s, 'local_client', o) },
  scalar('voteMissionPlayers', 'vote_mission_players'),
  scalar('voteThreshold', 'vote_threshold'),
  scalar('kickDuplicate', 'kick_duplicate'),
  scalar('verifySignatures', 'verify_signatures'),
  scalar('allowedFilePatching', 'allowed_file_patching'),
  array('filePatchingExceptions', 'file_patching_exceptions', nonEmpty('file_patching_exceptions')),
  scalar('BattlEye', 'anticheat'),
  scalar('battleyeLicense', 'battleye_license'),
  scalar('persistent', 'persistent'),
  scalar('timeStampFormat', 'time_stamp_format'),
  scalar('logFile', 'log_file'),
  {
    key: 'forcedDifficulty',
    fields: ['forced_difficulty'],
    value: (s) => DIFFICULTIES[num(s, 'forced_difficulty')] ?? 'Regular',
    read: (v) => {
      const index = DIFFICULTIES.findIndex((d) => d.toLowerCase() === String(v).toLowerCase());
      return index < 0 ? `${JSON.stringify(v)} is no difficulty (${DIFFICULTY_NAMES})` : { forced_difficulty: index };
    },
  },
  scalar('disableVoN', 'disable_von'),
  scalar('vonCodec', 'von_codec'),
  scalar('vonCodecQuality', 'von_codec_quality'),
  scalar('disconnectTimeout', 'disconnect_timeout'),
  scalar('maxDesync', 'max_desync'),
  scalar('maxPing', 'max_ping'),
  scalar('maxPacketLoss', 'max_packet_loss'),
  {
    // One flag per check (ping, packet loss, desync, disconnect): the toggle for all four, or the four as given.
    key: 'kickClientsOnSlowNetwork',
    fields: ['kick_on_slow_network', 'kick_on_slow_network_checks'],
    array: true,
    value: (s) =>
      list(s, 'kick_on_slow_network_checks').length
        ? list(s, 'kick_on_slow_network_checks').map(Number)
        : Array<number>(4).fill(num(s, 'kick_on_slow_network')),
    read: (v) => {
      const flags = asList(v).map((f) => (typeof f === 'boolean' ? Number(f) : f));
      if (!flags.length || flags.length > 4 || flags.some((f) => f !== 0 && f !== 1))
        return 'expected one 0 or 1 for each of the four checks ({0, 0, 0, 1})';
      if (flags.length === 4 && flags.every((f) => f === flags[0]))
        return { kick_on_slow_network: flags[0], kick_on_slow_network_checks: [] };
      return { kick_on_slow_network: 0, kick_on_slow_network_checks: flags.map(String) };
    },
  },
  {
    key: 'kickTimeout',
    fields: KICK_TIMEOUT_FIELDS,
    array: true,
    value: (s) => KICK_TIMEOUT_FIELDS.map((f, type) => [type, num(s, f)]),
    read: (v) => {
      const out: Record<string, unknown> = {};
      for (const pair of asList(v)) {
        if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number' || !KICK_TIMEOUT_FIELDS[pair[0]])
          return 'expected {{type, seconds}, …} with types 0 to 3';
        out[KICK_TIMEOUT_FIELDS[pair[0]]] = pair[1];
      }
      return out;
    },
  },
  scalar('lobbyIdleTimeout', 'lobby_idle_timeout'),
  scalar('votingTimeOut', 'voting_timeout'),
  scalar('roleTimeOut', 'role_timeout'),
  scalar('briefingTimeOut', 'briefing_timeout'),
  scalar('debriefingTimeOut', 'debriefing_timeout'),
  scalar('randomMissionOrder', 'random_mission_order'),
  scalar('autoSelectMission', 'auto_select_mission'),
  array('missionWhitelist', 'mission_whitelist', nonEmpty('mission_whitelist')),
  { ...scalar('missionsToServerRestart', 'missions_to_server_restart'), when: positive('missions_to_server_restart') },
  { ...scalar('missionsToShutdown', 'missions_to_shutdown'), when: positive('missions_to_shutdown') },
  scalar('skipLobby', 'skip_lobby'),
  scalar('upnp', 'upnp'),
  scalar('loopback', 'loopback'),
  scalar('statisticsEnabled', 'statistics_enabled'),
  scalar('allowProfileGlasses', 'allow_profile_glasses'),
  scalar('drawingInMap', 'drawing_in_map'),
  scalar('zeusCompositionScriptLevel', 'zeus_composition_script_level'),
  scalar('forceRotorLibSimulation', 'force_rotor_lib_simulation'),
  { ...scalar('requiredBuild', 'required_build'), when: positive('required_build') },
  scalar('steamProtocolMaxDataSize', 'steam_protocol_max_data_size'),
  array('allowedLoadFileExtensions', 'allowed_load_file_extensions', nonEmpty('allowed_load_file_extensions')),
  array('allowedPreprocessFileExtensions', 'allowed_preprocess_file_extensions', nonEmpty('allowed_preprocess_file_extensions')),
  array('allowedHTMLLoadExtensions', 'allowed_html_load_extensions', nonEmpty('allowed_html_load_extensions')),
  {
    // {channel, text disabled, voice disabled} for each channel either field names.
    key: 'disableChannels',
    fields: ['disable_text_channels', 'disable_voice_channels'],
    array: true,
    when: (s) => nonEmpty('disable_text_channels')(s) || nonEmpty('disable_voice_channels')(s),
    value: (s) => {
      const text = new Set(list(s, 'disable_text_channels').map(Number));
      const voice = new Set(list(s, 'disable_voice_channels').map(Number));
      return [...new Set([...text, ...voice])].sort((a, b) => a - b).map((c) => [c, text.has(c), voice.has(c)]);
    },
    read: (v) => {
      const text: string[] = [];
      const voice: string[] = [];
      for (const entry of asList(v)) {
        // {channel, text, voice}, or a bare channel number (both disabled), as older files write it.
        const parts: readonly unknown[] = Array.isArray(entry) ? entry : [entry];
        const [channel, noText = true, noVoice = true] = parts;
        if (typeof channel !== 'number') return 'expected {{channel, text, voice}, …}';
        if (truthy(noText)) text.push(String(channel));
        if (truthy(noVoice)) voice.push(String(channel));
      }
      return { disable_text_channels: text, disable_voice_channels: voice };
    },
  },
  scalar('onUserConnected', 'on_user_connected'),
  scalar('onUserDisconnected', 'on_user_disconnected'),
  scalar('onUserKicked', 'on_user_kicked'),
  scalar('doubleIdDetected', 'double_id_detected'),
  scalar('onUnsignedData', 'on_unsigned_data'),
  scalar('onHackedData', 'on_hacked_data'),
  scalar('onDifferentData', 'on_different_data'),
  { ...scalar('regularCheck', 'regular_check'), when: (s) => str(s, 'regular_check') !== '' },
];

const SERVER_CLASSES: ClassBlock[] = [
  {
    className: 'AdvancedOptions',
    fields: [
      'advanced_log_object_not_found',
      'advanced_skip_description_parsing',
      'advanced_ignore_mission_load_errors',
      'advanced_queue_size_log_g',
    ],
    write: (w, s) =>
      w
        .open('AdvancedOptions')
        .set('LogObjectNotFound', Boolean(s.advanced_log_object_not_found))
        .set('SkipDescriptionParsing', Boolean(s.advanced_skip_description_parsing))
        .set('ignoreMissionLoadErrors', Boolean(s.advanced_ignore_mission_load_errors))
        .set('queueSizeLogG', num(s, 'advanced_queue_size_log_g'))
        .close(),
    read: {
      logobjectnotfound: 'advanced_log_object_not_found',
      skipdescriptionparsing: 'advanced_skip_description_parsing',
      ignoremissionloaderrors: 'advanced_ignore_mission_load_errors',
      queuesizelogg: 'advanced_queue_size_log_g',
    },
  },
  {
    className: 'Missions',
    fields: ['missions'],
    write: (w, s) => {
      const rotation = (s.missions as { name: string; difficulty: string }[] | undefined) ?? [];
      w.open('Missions');
      rotation.forEach((mission, index) => {
        w.open(`Mission${String(index + 1).padStart(3, '0')}`).set('template', mission.name);
        if (mission.difficulty) w.set('difficulty', mission.difficulty);
        w.open('Params').close().close();
      });
      w.close();
    },
  },
];

const BASIC_KEYS: Key[] = [
  scalar('MaxMsgSend', 'max_msg_send'),
  scalar('MaxSizeGuaranteed', 'max_size_guaranteed'),
  scalar('MaxSizeNonguaranteed', 'max_size_nonguaranteed'),
  scalar('MinBandwidth', 'min_bandwidth'),
  scalar('MaxBandwidth', 'max_bandwidth'),
  scalar('MinErrorToSend', 'min_error_to_send'),
  scalar('MinErrorToSendNear', 'min_error_to_send_near'),
  scalar('MaxCustomFileSize', 'max_custom_file_size'),
];
const BASIC_CLASSES: ClassBlock[] = [
  {
    className: 'sockets',
    fields: ['max_packet_size'],
    write: (w, s) => w.open('sockets').set('maxPacketSize', num(s, 'max_packet_size')).close(),
    read: { maxpacketsize: 'max_packet_size' },
  },
];

/** The keys and classes Garrison writes into each file, and the section field holding the extra lines. */
export const GENERATED_FILES = {
  'server.cfg': { section: 'server', keys: SERVER_KEYS, classes: SERVER_CLASSES },
  'basic.cfg': { section: 'basic', keys: BASIC_KEYS, classes: BASIC_CLASSES },
  'server.GameaProfile': { section: 'profile', keys: PROFILE_KEYS, classes: PROFILE_CLASSES },
} as const;
export type GeneratedFile = keyof typeof GENERATED_FILES;

/** What a key Garrison writes answers to: game key or class name (lower case) → the field(s) to use instead. */
export function managedKeys(file: GeneratedFile): Map<string, string> {
  const { keys, classes } = GENERATED_FILES[file];
  return new Map([
    ...keys.map((k) => [k.key.toLowerCase(), k.fields.join(', ')] as const),
    ...classes.map((c) => [c.className.toLowerCase(), c.fields.length > 3 ? `the ${c.className} fields` : c.fields.join(', ')] as const),
  ]);
}

function renderFile(file: GeneratedFile, s: Section, options: RenderOptions = {}): string {
  const { keys, classes } = GENERATED_FILES[file];
  const w = new ConfigWriter().comment(HEADER).blank();
  for (const k of keys) {
    if (k.when && !k.when(s) && !writtenWhenEmpty(s).has(k.key.toLowerCase())) continue;
    const value = k.value ? k.value(s, options) : (s[k.fields[0]] as Value);
    if (k.array) w.array(k.key, value as Value[]);
    else w.set(k.key, value as Exclude<Value, readonly Value[]>);
  }
  for (const c of classes) c.write(w.blank(), s);
  const extra = list(s, 'extra_lines');
  if (extra.length) w.blank().comment(EXTRA_HEADER).verbatim(extra);
  return w.toString();
}

export const renderServerCfg = (server: Section, options: RenderOptions = {}) => renderFile('server.cfg', server, options);
export const renderBasicCfg = (basic: Section) => renderFile('basic.cfg', basic);
export const renderProfile = (profile: Section) => renderFile('server.GameaProfile', profile);

/** BattlEye's own `Key value` lines; the password pattern keeps values free of spaces and line breaks. */
export function renderBattlEyeCfg(rcon: Section, rconPort: number): string {
  const lines = [`RConPort ${rconPort}`, `MaxPing ${num(rcon, 'max_ping')}`];
  const password = str(rcon, 'rcon_password');
  // Without a password BattlEye leaves RCon off, which is what "disabled" means to the game.
  if (num(rcon, 'enabled') === 1 && password) lines.unshift(`RConPassword ${password}`);
  return lines.join('\n') + '\n';
}

export function renderConfigFiles(config: ConfigValues, ctx: ServerContext): RenderedFile[] {
  const paths = layout(ctx);
  return [
    {
      label: 'server.cfg',
      path: paths.serverCfg,
      content: renderServerCfg(config.server ?? {}, { headlessClients: ctx.server.headless_clients }),
    },
    { label: 'basic.cfg', path: paths.basicCfg, content: renderBasicCfg(config.basic ?? {}) },
    { label: 'server.GameaProfile', path: paths.profile, content: renderProfile(config.profile ?? {}) },
    { label: 'BEServer_x64.cfg', path: paths.battlEyeCfg, content: renderBattlEyeCfg(config.rcon ?? {}, ctx.server.rcon_port) },
  ];
}
