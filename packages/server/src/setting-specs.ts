/**
 * How a feature declares its settings (beside its code, in its folder's settings.ts): the slice of
 * `Settings` it reads, their defaults, and for each one a deployer can set its variable, flag, meaning
 * and parser. settings.ts composes the declarations; help and docs/configuration.md are written from them.
 */

type Parse<V = unknown> = (raw: string, name: string) => V;

/** One setting a deployer can set: by environment variable, and for the common ones by flag too. */
export interface SettingSpec<K extends string = string, V = unknown> {
  key: K;
  env: string;
  /** The variable's former name, still read when `env` is unset (a deployment set up before the rename). */
  formerEnv?: string;
  /** The flag, without the dashes. */
  flag?: string;
  /** Only `serve` takes the flag (where to listen); the commands that work on the data take the others. */
  serveOnly?: boolean;
  /** The default as help shows it, when the value itself would not say it. */
  shownDefault?: string;
  /** One line for `garrison help serve`. */
  meaning: string;
  /** How docs/configuration.md says it (Markdown), where it says more than help's line or marks code up. */
  doc?: { meaning?: string; default?: string };
  parse: Parse<V>;
}

/** The specs a slice `T` may have: each key of it, parsed to that key's type. */
type SpecOf<T> = { [K in keyof T & string]: SettingSpec<K, T[K]> }[keyof T & string];

/** A feature's settings, as settings.ts composes them. */
export interface SettingsDeclaration<T extends object = object> {
  /** Who declares them: named when two declare the same setting. */
  feature: string;
  defaults: T;
  /** In the order help and the docs show them; a slice may hold values only code sets (tests), without a spec. */
  specs: readonly SettingSpec[];
  /**
   * Checks what the parsers cannot see alone (a value given in code; one setting against another) and
   * puts values in their final form; throws a SettingError.
   */
  settle?(slice: T): void;
}

/** Declares a feature's settings: each spec's key is one of the slice's, its parser gives that key's type. */
export function declareSettings<T extends object>(declaration: {
  feature: string;
  defaults: T;
  specs: readonly SpecOf<T>[];
  settle?(slice: T): void;
}): SettingsDeclaration<T> {
  return declaration;
}

/** A bad setting: names the variable or flag and what it accepts; the CLI exits 2 on it. */
export class SettingError extends Error {}

/**
 * The declarations as one: every spec in order, the defaults merged. Two declarations of one key,
 * variable or flag are a mistake in the code, refused at start-up with both features named.
 */
export function composeSettings(declarations: readonly SettingsDeclaration[]): { specs: readonly SettingSpec[]; defaults: object } {
  const owners = new Map<string, string>();
  const claim = (what: string, feature: string) => {
    const owner = owners.get(what);
    if (owner !== undefined) throw new Error(`the setting ${what} is declared twice: by ${owner} and by ${feature}`);
    owners.set(what, feature);
  };
  for (const { feature, defaults, specs } of declarations) {
    for (const key of Object.keys(defaults)) claim(key, feature);
    for (const spec of specs) {
      claim(spec.env, feature);
      if (spec.formerEnv) claim(spec.formerEnv, feature);
      if (spec.flag) claim(`--${spec.flag}`, feature);
    }
  }
  return { specs: declarations.flatMap((d) => d.specs), defaults: Object.assign({}, ...declarations.map((d) => d.defaults)) as object };
}

export const text: Parse<string> = (raw) => raw;

export const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parse<number> =>
  (raw, name) => {
    const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new SettingError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };

export const oneOf =
  <V extends string>(values: readonly V[]): Parse<V> =>
  (raw, name) => {
    if (!(values as readonly string[]).includes(raw))
      throw new SettingError(`${name} must be one of ${values.join(', ')}; got ${JSON.stringify(raw)}`);
    return raw as V;
  };

/** Comma-separated, blanks dropped. */
export const list: Parse<string[]> = (raw) =>
  raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);

/** `0` or `1`, as a switch. */
export const onOff: Parse<boolean> = (raw, name) => {
  if (raw !== '0' && raw !== '1') throw new SettingError(`${name} must be 0 or 1; got ${JSON.stringify(raw)}`);
  return raw === '1';
};

/** A secret the deployer makes up: long enough not to be guessed. */
export const secretOf =
  (minLength: number): Parse<string> =>
  (raw, name) => {
    if (raw.length < minLength) throw new SettingError(`${name} must be at least ${minLength} characters`);
    return raw;
  };
