import type { ConfigValues, RenderedFile, ServerContext } from '@garrison/core';
import { ConfigWriter } from './syntax.js';
import { layout } from '../layout.js';

const HEADER = 'Written by Garrison: edit the settings in Garrison, changes made here are overwritten on the next start.';
const DIFFICULTY_NAMES = ['Recruit', 'Regular', 'Veteran', 'Custom'];

type Section = Record<string, unknown>;
const num = (s: Section, k: string) => s[k] as number;
const str = (s: Section, k: string) => s[k] as string;
const list = (s: Section, k: string) => (s[k] as string[] | undefined) ?? [];

export function renderServerCfg(server: Section): string {
  const w = new ConfigWriter().comment(HEADER).blank();
  w.set('hostname', str(server, 'hostname'))
    .set('password', str(server, 'password'))
    .set('passwordAdmin', str(server, 'password_admin'))
    .set('serverCommandPassword', str(server, 'server_command_password'))
    .set('maxPlayers', num(server, 'max_players'))
    .array('motd', list(server, 'motd_lines'))
    .set('motdInterval', num(server, 'motd_interval'))
    .array('admins', list(server, 'admin_uids'))
    .array('headlessClients', list(server, 'headless_clients'))
    .array('localClient', list(server, 'local_client'))
    .set('voteMissionPlayers', num(server, 'vote_mission_players'))
    .set('voteThreshold', num(server, 'vote_threshold'))
    .set('kickDuplicate', num(server, 'kick_duplicate'))
    .set('verifySignatures', num(server, 'verify_signatures'))
    .set('allowedFilePatching', num(server, 'allowed_file_patching'))
    .set('BattlEye', num(server, 'anticheat'))
    .set('persistent', num(server, 'persistent'))
    .set('timeStampFormat', str(server, 'time_stamp_format'))
    .set('logFile', str(server, 'log_file'))
    .set('forcedDifficulty', DIFFICULTY_NAMES[num(server, 'forced_difficulty')] ?? 'Regular')
    .set('disableVoN', num(server, 'disable_von'))
    .set('vonCodec', num(server, 'von_codec'))
    .set('vonCodecQuality', num(server, 'von_codec_quality'))
    .set('disconnectTimeout', num(server, 'disconnect_timeout'))
    .set('maxDesync', num(server, 'max_desync'))
    .set('maxPing', num(server, 'max_ping'))
    .set('maxPacketLoss', num(server, 'max_packet_loss'))
    .array('kickClientsOnSlowNetwork', Array(4).fill(num(server, 'kick_on_slow_network')))
    .set('lobbyIdleTimeout', num(server, 'lobby_idle_timeout'))
    .set('votingTimeOut', num(server, 'voting_timeout'))
    .set('roleTimeOut', num(server, 'role_timeout'))
    .set('briefingTimeOut', num(server, 'briefing_timeout'))
    .set('debriefingTimeOut', num(server, 'debriefing_timeout'))
    .set('randomMissionOrder', num(server, 'random_mission_order'))
    .set('autoSelectMission', num(server, 'auto_select_mission'))
    .set('skipLobby', num(server, 'skip_lobby'))
    .set('upnp', num(server, 'upnp'))
    .set('loopback', num(server, 'loopback'))
    .set('statisticsEnabled', num(server, 'statistics_enabled'))
    .set('allowProfileGlasses', num(server, 'allow_profile_glasses'))
    .set('drawingInMap', num(server, 'drawing_in_map'))
    .set('zeusCompositionScriptLevel', num(server, 'zeus_composition_script_level'))
    .set('onUserConnected', str(server, 'on_user_connected'))
    .set('onUserDisconnected', str(server, 'on_user_disconnected'))
    .set('doubleIdDetected', str(server, 'double_id_detected'))
    .set('onUnsignedData', str(server, 'on_unsigned_data'))
    .set('onHackedData', str(server, 'on_hacked_data'))
    .set('onDifferentData', str(server, 'on_different_data'));

  const rotation = (server.missions as { name: string; difficulty: string }[] | undefined) ?? [];
  w.blank().open('Missions');
  rotation.forEach((mission, index) => {
    w.open(`Mission${String(index + 1).padStart(3, '0')}`).set('template', mission.name);
    if (mission.difficulty) w.set('difficulty', mission.difficulty);
    w.open('Params').close().close();
  });
  return w.close().toString();
}

export function renderBasicCfg(basic: Section): string {
  return new ConfigWriter()
    .comment(HEADER)
    .blank()
    .set('MaxMsgSend', num(basic, 'max_msg_send'))
    .set('MaxSizeGuaranteed', num(basic, 'max_size_guaranteed'))
    .set('MaxSizeNonguaranteed', num(basic, 'max_size_nonguaranteed'))
    .set('MinBandwidth', num(basic, 'min_bandwidth'))
    .set('MaxBandwidth', num(basic, 'max_bandwidth'))
    .set('MinErrorToSend', num(basic, 'min_error_to_send'))
    .set('MinErrorToSendNear', num(basic, 'min_error_to_send_near'))
    .set('MaxCustomFileSize', num(basic, 'max_custom_file_size'))
    .open('sockets')
    .set('maxPacketSize', num(basic, 'max_packet_size'))
    .close()
    .toString();
}

const PROFILE_OPTIONS: [game: string, field: string][] = [
  ['reducedDamage', 'reduced_damage'],
  ['groupIndicators', 'group_indicators'],
  ['friendlyTags', 'friendly_tags'],
  ['enemyTags', 'enemy_tags'],
  ['detectedMines', 'detected_mines'],
  ['commands', 'commands'],
  ['waypoints', 'waypoints'],
  ['tacticalPing', 'tactical_ping'],
  ['weaponInfo', 'weapon_info'],
  ['stanceIndicator', 'stance_indicator'],
  ['staminaBar', 'stamina_bar'],
  ['weaponCrosshair', 'weapon_crosshair'],
  ['visionAid', 'vision_aid'],
  ['thirdPersonView', 'third_person_view'],
  ['cameraShake', 'camera_shake'],
  ['scoreTable', 'score_table'],
  ['deathMessages', 'death_messages'],
  ['vonID', 'von_id'],
  ['mapContent', 'map_content'],
  ['autoReport', 'auto_report'],
  ['multipleSaves', 'multiple_saves'],
];

export function renderProfile(profile: Section): string {
  const w = new ConfigWriter().comment(HEADER).blank().set('difficulty', 'Custom').open('DifficultyPresets');
  w.open('CustomDifficulty').open('Options');
  for (const [game, field] of PROFILE_OPTIONS) w.set(game, num(profile, field));
  w.close().set('aiLevelPreset', num(profile, 'ai_level_preset')).close();
  w.open('CustomAILevel').set('skillAI', num(profile, 'skill_ai')).set('precisionAI', num(profile, 'precision_ai')).close();
  return w.close().toString();
}

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
    { label: 'server.cfg', path: paths.serverCfg, content: renderServerCfg(config.server ?? {}) },
    { label: 'basic.cfg', path: paths.basicCfg, content: renderBasicCfg(config.basic ?? {}) },
    { label: 'server.GameaProfile', path: paths.profile, content: renderProfile(config.profile ?? {}) },
    { label: 'BEServer_x64.cfg', path: paths.battlEyeCfg, content: renderBattlEyeCfg(config.rcon ?? {}, ctx.server.rcon_port) },
  ];
}
