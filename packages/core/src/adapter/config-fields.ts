import { Type, type Static, type TObject, type TProperties, type TSchema } from '../typebox.js';

/** The editor hint of one config field, as the config schema endpoint reports it. */
export const WidgetHintSchema = Type.Object(
  {
    widget: Type.Union(
      (['text', 'password', 'number', 'toggle', 'select', 'textarea', 'tag-list', 'hidden'] as const).map((w) => Type.Literal(w)),
    ),
    label: Type.String(),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    options: Type.Optional(Type.Array(Type.String())),
    placeholder: Type.Optional(Type.String()),
  },
  { $id: 'WidgetHint' },
);
export type WidgetHint = Static<typeof WidgetHintSchema>;

/** Keyword under which a field's widget hint travels inside its JSON Schema. */
export const WIDGET_KEYWORD = 'x-widget';
/** Keyword marking a field whose value is a secret: masked as `***` for every reader. */
export const SENSITIVE_KEYWORD = 'x-sensitive';
export const MASK = '***';
/**
 * Keyword saying whether a secret may be emptied: true for one that means "none" when empty (a join
 * password), false for one the service needs (the remote-admin password), which is replaced, never cleared.
 */
export const CLEARABLE_KEYWORD = 'x-clearable';
/** Keyword under which a number field's unit travels inside its JSON Schema. */
export const UNIT_KEYWORD = 'x-unit';

interface Common {
  label: string;
  /** What the field does, as the config editor's help text shows it. */
  description?: string;
  placeholder?: string;
  /** The unit of a number (`s`, `ms`, `bytes`…), shown with its default in the help text. */
  unit?: string;
}

function hint(base: Common, widget: WidgetHint['widget'], more: Partial<WidgetHint> = {}): Record<string, unknown> {
  const h: WidgetHint = { widget, label: base.label, ...more };
  if (base.placeholder !== undefined) h.placeholder = base.placeholder;
  return {
    title: base.label,
    ...(base.description ? { description: base.description } : {}),
    ...(base.unit ? { [UNIT_KEYWORD]: base.unit } : {}),
    [WIDGET_KEYWORD]: h,
  };
}

/**
 * Builders for config fields. Each returns a plain TypeBox schema carrying its default, bounds and
 * widget hint, so that one declaration gives validation, the JSON Schema and the editor hint.
 */
export const Field = {
  text(o: Common & { default: string; maxLength?: number; pattern?: string }) {
    return Type.String({
      default: o.default,
      maxLength: o.maxLength ?? 1024,
      ...(o.pattern ? { pattern: o.pattern } : {}),
      ...hint(o, 'text'),
    });
  },
  /** A secret: masked in every read; `clearable: false` for one that must not be left empty (see CLEARABLE_KEYWORD). */
  password(o: Common & { default: string; maxLength?: number; pattern?: string; clearable?: boolean }) {
    return Type.String({
      default: o.default,
      maxLength: o.maxLength ?? 128,
      ...(o.pattern ? { pattern: o.pattern } : {}),
      [SENSITIVE_KEYWORD]: true,
      [CLEARABLE_KEYWORD]: o.clearable ?? true,
      ...hint(o, 'password'),
    });
  },
  integer(o: Common & { default: number; min: number; max: number }) {
    return Type.Integer({ default: o.default, minimum: o.min, maximum: o.max, ...hint(o, 'number', { min: o.min, max: o.max }) });
  },
  number(o: Common & { default: number; min: number; max: number }) {
    return Type.Number({ default: o.default, minimum: o.min, maximum: o.max, ...hint(o, 'number', { min: o.min, max: o.max }) });
  },
  /** An integer 0/1 switch, the way the game's own config files spell booleans. */
  toggle(o: Common & { default: 0 | 1 }) {
    return Type.Integer({ default: o.default, minimum: 0, maximum: 1, ...hint(o, 'toggle') });
  },
  boolean(o: Common & { default: boolean }) {
    return Type.Boolean({ default: o.default, ...hint(o, 'toggle') });
  },
  /** A choice among numbered values; the options read `"<number> - <description>"`. */
  numberedSelect(o: Common & { default: number; choices: string[] }) {
    const options = o.choices.map((c, i) => `${i} - ${c}`);
    return Type.Integer({ default: o.default, minimum: 0, maximum: o.choices.length - 1, ...hint(o, 'select', { options }) });
  },
  /** A choice among plain string values. */
  select<const V extends string>(o: Common & { default: V; choices: readonly V[] }) {
    return Type.Union(
      o.choices.map((c) => Type.Literal(c)),
      { default: o.default, ...hint(o, 'select', { options: [...o.choices] }) },
    );
  },
  /** Lines of text, one array element per row. */
  lines(o: Common & { default: string[]; maxItems?: number }) {
    return Type.Array(Type.String({ maxLength: 1024 }), { default: o.default, maxItems: o.maxItems ?? 100, ...hint(o, 'textarea') });
  },
  tags(o: Common & { default: string[]; maxItems?: number; itemPattern?: string }) {
    const item = Type.String({ minLength: 1, maxLength: 128, ...(o.itemPattern ? { pattern: o.itemPattern } : {}) });
    return Type.Array(item, { default: o.default, maxItems: o.maxItems ?? 200, ...hint(o, 'tag-list') });
  },
  /** A value kept in the section but edited elsewhere (e.g. through its own endpoints). */
  hidden<T extends TSchema>(schema: T, o: Common & { default: unknown }) {
    return Type.Unsafe<T['static']>({ ...schema, default: o.default, ...hint(o, 'hidden') });
  },
};

/** A config section: a closed object of fields. */
export function configSection<P extends TProperties>(properties: P): TObject<P> {
  return Type.Object(properties, { additionalProperties: false });
}

export function widgetHintOf(field: TSchema): WidgetHint | undefined {
  return (field as Record<string, unknown>)[WIDGET_KEYWORD] as WidgetHint | undefined;
}

export function isSensitive(field: TSchema): boolean {
  return (field as Record<string, unknown>)[SENSITIVE_KEYWORD] === true;
}

/** The default value of every field of a section. */
export function sectionDefaults(section: TObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(section.properties)) {
    out[name] = structuredClone((field as { default?: unknown }).default);
  }
  return out;
}
