import { isSensitive, MASK, type TObject } from '@garrison/core';

/** A copy of a section with every sensitive field shown as `***`, whoever reads it. */
export function maskSection(schema: TObject, data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const [name, field] of Object.entries(schema.properties)) {
    if (isSensitive(field) && name in out) out[name] = MASK;
  }
  return out;
}

/** Which of the section's secrets hold a value: the read masks them all alike, set or empty. */
export function secretsSet(schema: TObject, data: Record<string, unknown>): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([, field]) => isSensitive(field))
      .map(([name]) => [name, data[name] !== undefined && data[name] !== null && data[name] !== '']),
  );
}

/** Every section of a config masked by its schema (a section the game no longer has is shown as it is). */
export function maskSections(
  schemas: Readonly<Record<string, TObject>>,
  sections: Record<string, Record<string, unknown>>,
): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(sections).map(([name, data]) => [name, schemas[name] ? maskSection(schemas[name], data) : data]),
  );
}

/** A client that read `***` and sends it back means "keep the secret as it is". */
export function keepMaskedSecrets(schema: TObject, current: Record<string, unknown>, incoming: Record<string, unknown>) {
  const out = { ...incoming };
  for (const [name, field] of Object.entries(schema.properties)) {
    if (isSensitive(field) && out[name] === MASK) out[name] = current[name];
  }
  return out;
}
