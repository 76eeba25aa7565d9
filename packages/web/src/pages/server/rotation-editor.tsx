import { useEffect, useState } from 'preact/hooks';
import { GarrisonApiError, type Endpoints, type ResponseOf } from '@garrison/sdk';
import { client, endIfUnauthorized, isAdmin } from '../../session.js';
import { Problem } from '../../components/problem.js';
import { useModal } from '../../components/modal.js';
import type { ServerRecord } from './server-page.js';
import { useQuery } from '../../cache/use-query.js';
import { missionLabel, type GameType } from '../../games.js';
import { entryToSend, optionText, rotationOptionsOf, type RotationOption } from '../../game-missions.js';
import { optionsSuffix } from '../../format.js';

/** A rotation entry: the mission's name and the options the game declares for one (none for a map cycle). */
type Entry = { name: string } & Record<string, string>;
/** An entry with the list's key for it (a string, as an entry's values are). */
type Keyed = Entry & { key: string };
type Mission = ResponseOf<Endpoints['listMissions']>['missions'][number];

let nextKey = 0;
const keyed = (entries: readonly object[]): Keyed[] => (entries as Entry[]).map((e) => ({ ...e, key: String(nextKey++) }));
const plain = (entries: Keyed[]): Entry[] => entries.map(({ key: _key, ...entry }) => entry as Entry);

/**
 * The order the game plays its missions in, each with the options the game declares (as JSON Schema):
 * reordered by dragging (or by the move buttons, from the keyboard), saved with the version read so that
 * nobody's change is overwritten unseen.
 */
export function RotationEditor({ server, game, missions }: { server: ServerRecord; game: GameType | undefined; missions: Mission[] }) {
  const admin = isAdmin();
  const options = rotationOptionsOf(game?.missions?.rotation_options);
  const noun = missionLabel(game).toLowerCase();
  const { data, error, reload } = useQuery(`rotation:${server.id}:`, () => client.missions.rotation(server.id));
  const [entries, setEntries] = useState<Keyed[]>([]);
  const [version, setVersion] = useState(0);
  const [dirty, setDirty] = useState(false);
  const [dragging, setDragging] = useState<number | null>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [conflict, setConflict] = useState<{ theirs: Entry[]; version: number } | null>(null);
  const [saved, setSaved] = useState(false);
  const [warnings, setWarnings] = useState<string[]>([]);
  const installed = new Set(missions.map((m) => m.name.toLowerCase()));
  const [adding, setAdding] = useState('');
  useEffect(() => {
    if (!data) return;
    setEntries(keyed(data.missions));
    setVersion(data.config_version);
    setDirty(false);
  }, [data]);

  const change = (next: Keyed[]) => {
    setEntries(next);
    setDirty(true);
    setSaved(false);
  };
  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= entries.length) return;
    const next = [...entries];
    next.splice(to, 0, ...next.splice(from, 1));
    change(next);
  };
  const save = async (base = version, mine = entries) => {
    setSaveError(null);
    try {
      const result = await client.missions.setRotation(
        server.id,
        plain(mine).map((e) => entryToSend(e, options)),
        base,
      );
      setEntries(keyed(result.missions));
      setVersion(result.config_version);
      setDirty(false);
      setSaved(true);
      setWarnings(result.warnings);
      setConflict(null);
    } catch (err) {
      endIfUnauthorized(err);
      if (!(err instanceof GarrisonApiError && err.code === 'CONFIG_VERSION_CONFLICT')) return setSaveError(err);
      // The rotation saved now, to show beside the user's.
      await client.missions
        .rotation(server.id)
        .then((current) => setConflict({ theirs: plain(keyed(current.missions)), version: current.config_version }), setSaveError);
    }
  };

  return (
    <section class="rotation-editor" aria-labelledby="rotation-title">
      <h2 id="rotation-title">Rotation</h2>
      <Problem error={error} />
      {data && entries.length === 0 && <p class="empty">The rotation is empty: the game waits for an admin to pick a {noun}.</p>}
      <ol class="rotation">
        {entries.map((entry, index) => (
          <li
            key={entry.key}
            class={dragging === index ? 'dragging' : undefined}
            draggable={admin}
            onDragStart={(e) => {
              setDragging(index);
              e.dataTransfer?.setData('text/plain', entry.name);
            }}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              if (dragging !== null) move(dragging, index);
              setDragging(null);
            }}
            onDragEnd={() => setDragging(null)}
            data-testid="rotation-entry"
          >
            {admin && (
              <span class="handle" aria-hidden="true">
                ⠿
              </span>
            )}
            <span class="rotation-name">{entry.name}</span>
            {!installed.has(entry.name.toLowerCase()) && (
              <span class="badge" title={`No ${noun} file of this name is installed: the game skips it until one is uploaded.`}>
                not installed
              </span>
            )}
            {options.map((option) => (
              <label key={option.key} class="inline">
                <span class="sr-only">
                  {option.label} of {entry.name}
                </span>
                {option.values ? (
                  <select
                    value={entry[option.key] ?? option.initial ?? ''}
                    disabled={!admin}
                    onChange={(e) => change(entries.map((x, i) => (i === index ? { ...x, [option.key]: e.currentTarget.value } : x)))}
                  >
                    {option.values.map((v) => (
                      <option key={v} value={v}>
                        {optionText(v)}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    value={entry[option.key] ?? ''}
                    disabled={!admin}
                    onChange={(e) => change(entries.map((x, i) => (i === index ? { ...x, [option.key]: e.currentTarget.value } : x)))}
                  />
                )}
              </label>
            ))}
            {admin && (
              <span class="row-actions">
                <button
                  type="button"
                  class="quiet"
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                  aria-label={`Move ${entry.name} up`}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="quiet"
                  disabled={index === entries.length - 1}
                  onClick={() => move(index, index + 1)}
                  aria-label={`Move ${entry.name} down`}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="quiet danger"
                  onClick={() => change(entries.filter((_, i) => i !== index))}
                  aria-label={`Remove ${entry.name} from the rotation`}
                >
                  ×
                </button>
              </span>
            )}
          </li>
        ))}
      </ol>
      {admin && (
        <div class="toolbar">
          <label class="grow">
            {missionLabel(game)} to add
            <select value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
              <option value="">Choose a {noun}…</option>
              {missions.map((m) => (
                <option key={m.filename} value={m.name}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={!adding}
            onClick={() => (change([...entries, ...keyed([{ name: adding, ...initialOptions(options) }])]), setAdding(''))}
          >
            Add to rotation
          </button>
          <button type="button" disabled={!dirty} onClick={() => save()}>
            Save rotation
          </button>
          {dirty && (
            <button type="button" class="quiet" onClick={reload}>
              Discard changes
            </button>
          )}
          {saved && !dirty && (
            <span role="status" class="small">
              Saved. It applies at the next {noun} change or start.
              {warnings.length > 0 &&
                ` ${warnings.length === 1 ? 'One entry names' : `${warnings.length} entries name`} no installed ${noun}.`}
            </span>
          )}
        </div>
      )}
      <Problem error={saveError} onDismiss={() => setSaveError(null)} />
      {conflict && (
        <RotationConflict
          theirs={conflict.theirs}
          mine={plain(entries)}
          onKeepTheirs={() => {
            setEntries(keyed(conflict.theirs));
            setVersion(conflict.version);
            setDirty(false);
            setConflict(null);
          }}
          onReapply={() => save(conflict.version)}
        />
      )}
    </section>
  );
}

/** A new entry's options: each one's default, where it has one. */
const initialOptions = (options: readonly RotationOption[]) =>
  Object.fromEntries(options.flatMap((o) => (o.initial === undefined ? [] : [[o.key, o.initial]]))) as Record<string, string>;

function RotationConflict(props: { theirs: Entry[]; mine: Entry[]; onKeepTheirs: () => void; onReapply: () => void }) {
  const dialog = useModal();
  const list = (entries: Entry[]) => (
    <ol>
      {entries.map((e, i) => (
        <li key={i}>
          {e.name}
          {optionsSuffix(e)}
        </li>
      ))}
    </ol>
  );
  return (
    <dialog ref={dialog} aria-labelledby="rotation-conflict-title" class="wide" onCancel={props.onKeepTheirs}>
      <h2 id="rotation-conflict-title">The rotation was changed by someone else</h2>
      <p>Someone saved the rotation after you opened it. Keep theirs, or save yours over it.</p>
      <div class="compare">
        <div>
          <h3>Now saved</h3>
          {list(props.theirs)}
        </div>
        <div>
          <h3>Yours</h3>
          {list(props.mine)}
        </div>
      </div>
      <div class="dialog-actions">
        <button type="button" class="quiet" onClick={props.onKeepTheirs}>
          Keep theirs
        </button>
        <button type="button" onClick={props.onReapply}>
          Save mine over it
        </button>
      </div>
    </dialog>
  );
}
