import { randomBytes } from 'node:crypto';
import {
  ADAPTER_API_VERSION,
  ApiError,
  configSection,
  defineAdapter,
  defineConfigGenerator,
  Field,
  RotationEntry,
  Type,
} from '@garrison/core';

// The adapter docs/adapters.md builds, whole: one config section rendered to an ini file, an
// executable allowlist, launch arguments, log lines and mission files.

const server = configSection({
  hostname: Field.text({ label: 'Server name', default: 'My server', maxLength: 256 }),
  max_players: Field.integer({ label: 'Max players', default: 16, min: 1, max: 128 }),
  admin_password: Field.password({ label: 'Admin password', default: '' }),
  missions: Field.hidden(Type.Array(RotationEntry, { maxItems: 100 }), { label: 'Map rotation', default: [] }),
});

// The game's own syntax; a line break in a value would start a new setting.
const ini = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${String(v).replace(/[\r\n]/g, ' ')}`)
    .join('\n') + '\n';

export default defineAdapter({
  apiVersion: ADAPTER_API_VERSION,
  identity: { game_type: 'mygame', display_name: 'My Game', version: '1.0.0', schema_version: '1.0' },
  capabilities: {
    config_generator: defineConfigGenerator({
      sections: { server },
      generateCredentials: () => ({ server: { admin_password: randomBytes(12).toString('base64url') } }),
      render: (config, ctx) => [
        {
          label: 'server.ini',
          path: `${ctx.serverDir}/server.ini`,
          content: ini({
            Name: config.server.hostname,
            MaxPlayers: config.server.max_players,
            AdminPassword: config.server.admin_password,
          }),
        },
      ],
    }),
    process_config: {
      allowedExecutables: ['mygame_server'],
      launchArguments: (_config, ctx) => [`-port=${ctx.server.game_port}`, `-ini=${ctx.serverDir}/server.ini`],
    },
    log_parser: {
      logDirectory: (ctx) => `${ctx.exeDir}/logs`,
      isLogFile: (name) => name.endsWith('.log'),
      parseLine: (line) => {
        const match = /^\[(DEBUG|INFO|WARN|ERROR)\] (.*)$/.exec(line);
        if (!match) return line.trim() ? { level: 'info', message: line } : null;
        const level = ({ DEBUG: 'debug', INFO: 'info', WARN: 'warning', ERROR: 'error' } as const)[match[1] as 'DEBUG'];
        return { level, message: match[2] };
      },
    },
    mission_manager: {
      missionExtension: '.map',
      missionDirectory: (ctx) => `${ctx.exeDir}/maps`,
      parseMissionFilename: (filename) => {
        const match = /^([A-Za-z0-9_-]+)\.map$/.exec(filename);
        if (!match) throw new ApiError('ADAPTER_ERROR', `not a map file: ${filename}`);
        return { name: match[1], parts: {} };
      },
      rotation: { section: 'server', field: 'missions' },
      // A map cycle: each entry is a map's name, without options.
      rotationOptions: { schema: Type.Object({}, { additionalProperties: false }), normalize: () => ({}) },
    },
  },
});
