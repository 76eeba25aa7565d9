import { Type } from '../typebox.js';
import { ConfigVersion, ServerIdParams } from './common.js';
import { WidgetHintSchema } from '../adapter/config-fields.js';

export const ConfigMeta = Type.Object({
  config_version: Type.Integer(),
  schema_version: Type.String(),
  secrets_set: Type.Optional(
    Type.Record(Type.String(), Type.Boolean(), {
      description:
        'Each sensitive field of the section (shown as `***` whatever its value): true when it holds a value, false when it is empty.',
    }),
  ),
});

export const ConfigSectionRead = Type.Object(
  { _meta: ConfigMeta },
  { $id: 'ConfigSection', additionalProperties: true, description: "The section's fields (secrets as `***`) plus `_meta`." },
);

export const ConfigRead = Type.Record(Type.String(), ConfigSectionRead, { $id: 'ServerConfig' });

export const ConfigWidgetHints = Type.Record(Type.String(), Type.Record(Type.String(), WidgetHintSchema), {
  $id: 'ConfigWidgetHints',
});

export const ConfigPreview = Type.Record(Type.String(), Type.String(), {
  $id: 'ConfigPreview',
  description: 'Label (file name) → rendered text; may hold plaintext credentials.',
});

export const ConfigSectionParams = Type.Object({ ...ServerIdParams.properties, section: Type.String({ minLength: 1, maxLength: 64 }) });

/** Partial section fields plus the version last read; the fields are checked against the adapter's section schema. */
export const ConfigSectionUpdate = Type.Object(
  { config_version: ConfigVersion },
  { $id: 'ConfigSectionUpdate', additionalProperties: true },
);
