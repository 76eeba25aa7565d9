import { useState } from 'preact/hooks';
import { GarrisonApiError } from '@garrison/sdk';
import { CLEARABLE_KEYWORD, MASK, UNIT_KEYWORD, type WidgetHint } from '@garrison/core';
import { client, endIfUnauthorized, isAdmin } from '../../session.js';
import { Problem } from '../../components/problem.js';
import { useQuery } from '../../cache/use-query.js';
import { ConfigField, type FieldHelp } from './config-field.js';
import { ConfigConflict } from './config-conflict.js';
import { ConfigPreview } from './config-preview.js';
import type { TabProps } from './server-page.js';
import { humanise } from '../../format.js';

type Fields = Record<string, unknown>;
/** A section as read: its fields (secrets masked), its version, and which secrets are set (not in a conflict's answer). */
type Section = { fields: Fields; version: number; secrets?: Record<string, boolean> };
const PREVIEW = 'preview';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const splitMeta = ({
  _meta,
  ...fields
}: Fields & { _meta: { config_version: number; secrets_set?: Record<string, boolean> } }): Section => ({
  fields,
  version: _meta.config_version,
  ...(_meta.secrets_set ? { secrets: _meta.secrets_set } : {}),
});

/**
 * The server's config, one tab per section, drawn from the game's widget hints. A save sends only the
 * fields changed, with the version read; if someone saved in between, the user sees their values and
 * chooses whether to apply their own change on top.
 */
export function ConfigTab({ server }: TabProps) {
  const admin = isAdmin();
  const { data, error } = useQuery(`config:${server.id}:`, async () => {
    const [hints, config] = await Promise.all([client.config.schema(server.id), client.config.get(server.id)]);
    return { hints, sections: Object.fromEntries(Object.entries(config).map(([name, s]) => [name, splitMeta(s as never)])) };
  });
  // What each field does, its default and unit: the game's config schema (a public read, kept long).
  const schema = useQuery(`games:schema:${server.game_type}`, () => client.games.configSchema(server.game_type), 24 * 60 * 60_000).data;
  const helpOf = (section: string, field: string): FieldHelp | undefined => {
    const sectionSchema: { properties?: Record<string, Record<string, unknown>> } | undefined = schema?.[section];
    const property = sectionSchema?.properties?.[field];
    return (
      property && {
        description: property.description as string | undefined,
        default: property.default,
        unit: property[UNIT_KEYWORD] as string | undefined,
        clearable: property[CLEARABLE_KEYWORD] as boolean | undefined,
      }
    );
  };
  const [search, setSearch] = useState('');
  // What this page saved (or learnt from a conflict) since the read, over what the read gave.
  const [newer, setNewer] = useState<Record<string, Section>>({});
  const [drafts, setDrafts] = useState<Record<string, Fields>>({});
  const [current, setCurrent] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{ section: string; theirs: Section } | null>(null);
  // The version each section's edit began from: the read is kept live, so a change someone else saves
  // while this user edits must still come up as a conflict instead of being silently written over.
  const [draftBase, setDraftBase] = useState<Record<string, number>>({});

  if (!data) return <Problem error={error} />;
  // What this page saved or learnt, unless the (live) read is newer still.
  const sections = { ...data.sections };
  for (const [name, mine] of Object.entries(newer)) if (!sections[name] || mine.version >= sections[name].version) sections[name] = mine;
  const allNames = Object.keys(data.hints).filter(
    (name) => sections[name] && Object.values(data.hints[name]).some((h) => h.widget !== 'hidden'),
  );
  if (allNames.length === 0) return <p class="empty">This game has no settings to edit.</p>;
  // A search keeps the fields whose name, label or help says it, and the sections that have any.
  const term = search.trim().toLowerCase();
  const matching = (name: string) =>
    Object.entries(data.hints[name] ?? {}).filter(
      ([field, hint]) =>
        hint.widget !== 'hidden' &&
        (!term || `${field} ${hint.label} ${helpOf(name, field)?.description ?? ''}`.toLowerCase().includes(term)),
    );
  const names = term ? allNames.filter((name) => matching(name).length > 0) : allNames;
  const section = current && (names.includes(current) || (current === PREVIEW && admin)) ? current : names[0];
  const changes = (name: string): Fields => {
    const draft = drafts[name] ?? {};
    return Object.fromEntries(
      Object.entries(draft).filter(([field, value]) => !same(value, sections[name].fields[field]) && !(value === MASK)),
    );
  };

  const save = async (name: string, base: number) => {
    setSaveError(null);
    setSaved(null);
    const hints = data.hints[name] ?? {};
    const patch = Object.fromEntries(
      Object.entries(changes(name)).map(([field, value]) => [
        field,
        hints[field]?.widget === 'textarea' && Array.isArray(value) ? value.filter((line: unknown) => String(line).trim() !== '') : value,
      ]),
    );
    try {
      const result = await client.config.update(server.id, name, patch, base);
      setNewer((all) => ({ ...all, [name]: splitMeta(result) }));
      setDrafts((all) => ({ ...all, [name]: {} }));
      setDraftBase(({ [name]: _, ...others }) => others);
      setConflict(null);
      setSaved(name);
    } catch (err) {
      endIfUnauthorized(err);
      if (err instanceof GarrisonApiError && err.code === 'CONFIG_VERSION_CONFLICT') {
        setConflict({
          section: name,
          theirs: { fields: err.extra.current_config as Fields, version: err.extra.current_version as number },
        });
      } else setSaveError(err);
    }
  };

  return (
    <div class="config">
      <div class="toolbar">
        <label class="grow">
          Find a setting
          <input
            type="search"
            value={search}
            placeholder="e.g. password, ping, players"
            maxLength={100}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </label>
      </div>
      {term && names.length === 0 && <p class="empty">No setting matches “{search.trim()}”.</p>}
      <div class="section-tabs" role="tablist" aria-label="Config sections">
        {[...names, ...(admin ? [PREVIEW] : [])].map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`tab-${name}`}
            aria-selected={name === section}
            aria-controls="config-panel"
            class={Object.keys(changes(name) ?? {}).length ? 'changed' : undefined}
            onClick={() => (setCurrent(name), setSaved(null), setSaveError(null))}
          >
            {name === PREVIEW ? 'Preview' : humanise(name)}
            {term && name !== PREVIEW && <span class="small"> ({matching(name).length})</span>}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="config-panel" aria-labelledby={`tab-${section}`}>
        {section === PREVIEW ? (
          <ConfigPreview server={server} />
        ) : !section ? null : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void save(section, draftBase[section] ?? sections[section].version);
            }}
          >
            <fieldset disabled={!admin} class="fields">
              <legend class="sr-only">{humanise(section)}</legend>
              {matching(section).map(([field, hint]: [string, WidgetHint]) => (
                <ConfigField
                  key={field}
                  id={`cfg-${section}-${field}`}
                  hint={hint}
                  help={helpOf(section, field)}
                  saved={sections[section].fields[field]}
                  secretSet={(sections[section].secrets ?? data.sections[section]?.secrets)?.[field]}
                  value={field in (drafts[section] ?? {}) ? drafts[section][field] : sections[section].fields[field]}
                  onChange={(value) => {
                    setSaved(null);
                    setDrafts((all) => ({ ...all, [section]: { ...all[section], [field]: value } }));
                    setDraftBase((all) => (section in all ? all : { ...all, [section]: sections[section].version }));
                  }}
                />
              ))}
            </fieldset>
            {admin && (
              <div class="toolbar sticky-actions">
                <button type="submit" disabled={Object.keys(changes(section)).length === 0}>
                  Save {humanise(section)}
                </button>
                {Object.keys(changes(section)).length > 0 && (
                  <button type="button" class="quiet" onClick={() => setDrafts((all) => ({ ...all, [section]: {} }))}>
                    Discard changes
                  </button>
                )}
                {saved === section && (
                  <span role="status" class="small">
                    Saved (version {sections[section].version}). The game reads it at its next start.
                  </span>
                )}
              </div>
            )}
            <Problem error={saveError} onDismiss={() => setSaveError(null)} />
          </form>
        )}
      </div>
      {conflict && (
        <ConfigConflict
          section={humanise(conflict.section)}
          hints={data.hints[conflict.section] ?? {}}
          mine={changes(conflict.section)}
          theirs={conflict.theirs.fields}
          onUseTheirs={() => {
            setNewer((all) => ({ ...all, [conflict.section]: conflict.theirs }));
            setDrafts((all) => ({ ...all, [conflict.section]: {} }));
            setDraftBase(({ [conflict.section]: _, ...others }) => others);
            setConflict(null);
          }}
          onReapply={() => {
            setNewer((all) => ({ ...all, [conflict.section]: conflict.theirs }));
            void save(conflict.section, conflict.theirs.version);
          }}
        />
      )}
    </div>
  );
}
