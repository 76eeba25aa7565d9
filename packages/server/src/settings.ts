import { composeSettings, type SettingsDeclaration, type SettingSpec } from './setting-specs.js';
import { httpSettings } from './http/settings.js';
import { dataSettings } from './db/settings.js';
import { loggingSettings } from './logging/settings.js';
import { pluginSettings } from './plugins/settings.js';
import { FEATURES } from './features.js';

/** The house's own settings, first in help and docs: where to listen, where the data is, how to log. */
const HOUSE = [httpSettings, dataSettings, loggingSettings, pluginSettings] as const;

type FeatureDeclaration = NonNullable<(typeof FEATURES)[number]['settings']>;

/** Every setting's declaration: the house's, then each feature module's (in features.ts) in its order. */
const DECLARATIONS: readonly SettingsDeclaration<object>[] = [
  ...HOUSE,
  ...FEATURES.flatMap((feature): FeatureDeclaration[] => (feature.settings ? [feature.settings] : [])),
];

type SliceOf<D> = D extends SettingsDeclaration<infer T> ? T : never;
type AllOf<U> = (U extends unknown ? (slice: U) => void : never) extends (all: infer I) => void ? I : never;

/**
 * Everything a running service is configured with, read once at start-up (flags win over environment):
 * every feature's slice. A service takes its own slice (BackupSettings…) from TOKENS.Settings.
 */
export type Settings = AllOf<SliceOf<(typeof HOUSE)[number] | FeatureDeclaration>>;

export type SettingsInput = Partial<Settings>;

const composed = composeSettings(DECLARATIONS);
const DEFAULTS = composed.defaults as Settings;

/** Every setting a deployer can make, in the order help and docs show them. */
export const SETTINGS: readonly SettingSpec<keyof Settings>[] = composed.specs as readonly SettingSpec<keyof Settings>[];

/** The settings given by flag: all of them for `serve`, the ones about the data for the other commands. */
export const flagSettings = (command: 'serve' | 'data') => SETTINGS.filter((s) => s.flag && (command === 'serve' || !s.serveOnly));

/** The default of a setting as a person reads it. */
export function shownDefault(spec: SettingSpec): string {
  return spec.shownDefault ?? String(DEFAULTS[spec.key as keyof Settings]);
}

/** The settings given by environment variables; a bad value throws a SettingError naming the variable. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): SettingsInput {
  const out: Record<string, unknown> = {};
  const given = (name: string | undefined) => name !== undefined && env[name] !== undefined && env[name] !== '';
  for (const spec of SETTINGS) {
    const name = given(spec.env) ? spec.env : given(spec.formerEnv) ? spec.formerEnv! : null;
    if (name !== null) out[spec.key] = spec.parse(env[name]!, name);
  }
  return out;
}

/** The settings given as `serve` flags (by flag name, without dashes); a bad value names the flag. */
export function settingsFromFlags(flags: Record<string, string | undefined>): SettingsInput {
  const out: Record<string, unknown> = {};
  for (const spec of SETTINGS) {
    const raw = spec.flag ? flags[spec.flag] : undefined;
    if (raw !== undefined) out[spec.key] = spec.parse(raw, `--${spec.flag}`);
  }
  return out;
}

/** The defaults, what is given over them, each feature's checks; a bad value throws a SettingError. */
export function resolveSettings(input: SettingsInput = {}): Settings {
  const settings: Settings = { ...DEFAULTS, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
  for (const declaration of DECLARATIONS) declaration.settle?.(settings);
  return settings;
}
