import { MASK, isSensitive, type TObject, expectOnly } from '@garrison/core';
import { loadOrCreateSecret, type SecretSettings } from '../auth/tokens.js';
import { NotOpened, Sealer } from '../auth/sealing.js';
import { maskSections } from '../config/masking.js';

type Sections = Record<string, Record<string, unknown>>;

/**
 * The game's passwords in a backup's manifest: shown masked, and sealed beside (`sealed_secrets`) for the
 * restore, with the key of the two-factor secrets' kind derived from the signing secret for this purpose.
 * Made at each use, not once: after `rotate-jwt-secret` new backups are sealed with the new secret.
 */
const sealer = (settings: SecretSettings) => new Sealer(loadOrCreateSecret(settings), 'backup-secrets');

/** The sensitive fields of each section, by the game's schemas. */
function secretsOf(schemas: Readonly<Record<string, TObject>>, sections: Sections): Sections {
  const out: Sections = {};
  for (const [name, values] of Object.entries(sections)) {
    const schema = schemas[name];
    if (!schema) continue;
    const fields = Object.entries(schema.properties).filter(([field, s]) => isSensitive(s) && field in values);
    if (fields.length) out[name] = Object.fromEntries(fields.map(([field]) => [field, values[field]]));
  }
  return out;
}

/** What the archive's manifest holds of the config: masked sections and the passwords sealed. */
export function sealedConfig(settings: SecretSettings, schemas: Readonly<Record<string, TObject>>, sections: Sections) {
  return {
    config_sections: maskSections(schemas, sections),
    sealed_secrets: sealer(settings).seal(JSON.stringify(secretsOf(schemas, sections))),
  };
}

/**
 * The manifest's sections with their passwords back. A manifest from before sealing holds them in clear:
 * taken as they are. Sealed with another signing secret (rotated since, or the backup of another
 * instance): the server keeps its current passwords, and the answer's warning says so, since a restore
 * that failed for the passwords alone would leave an admin with no way back to the files.
 */
export function unsealedConfig(
  settings: SecretSettings,
  manifest: { config_sections: Sections; sealed_secrets?: unknown },
  current: Sections,
): { sections: Sections; warning: string | null } {
  let secrets: Sections | null = null;
  if (typeof manifest.sealed_secrets === 'string') {
    try {
      secrets = JSON.parse(sealer(settings).open(manifest.sealed_secrets)) as Sections;
    } catch (err) {
      expectOnly(err, NotOpened, SyntaxError); // sealed by another signing secret: the warning below says so
      secrets = null;
    }
  }
  const sections: Sections = {};
  let kept = false;
  for (const [name, values] of Object.entries(manifest.config_sections)) {
    const out = { ...values };
    for (const [field, value] of Object.entries(values)) {
      if (value !== MASK) continue;
      const sealed = secrets?.[name];
      if (sealed && field in sealed) out[field] = sealed[field];
      else if (current[name] && field in current[name]) {
        out[field] = current[name][field];
        kept = true;
      }
    }
    sections[name] = out;
  }
  const warning = kept
    ? "its game passwords were sealed with another signing secret (rotated since, or another instance's), so the server keeps " +
      'its current ones'
    : null;
  return { sections, warning };
}
