import { useState } from 'preact/hooks';
import { client, endIfUnauthorized, isAdmin } from '../../session.js';
import { describe, Problem, useAction } from '../../components/problem.js';
import { ConfirmButton } from '../../components/confirm.js';
import { RotationEditor } from './rotation-editor.js';
import { bytes, humanise } from '../../format.js';
import type { TabProps } from './server-page.js';
import { TableHead } from '../../components/table-head.js';
import { useQuery } from '../../cache/use-query.js';
import { can, missionLabel, useGame } from '../../games.js';
import { missionParts, partsOf } from '../../game-missions.js';

type Upload = { name: string; sent: number; total: number | null };

/** The mission files on the server (upload, delete) and the rotation the game plays them in. */
export function MissionsTab({ server }: TabProps) {
  const admin = isAdmin();
  const game = useGame(server.game_type);
  // "Play now" is the game's own command, over remote admin, to a running server.
  const playable = can(game, 'remote_admin');
  // The game's word for one (`Mission`, `Map`) and what its files end in.
  const label = missionLabel(game);
  const noun = label.toLowerCase();
  const extension = game?.missions?.extension;
  const { data, error, reload } = useQuery(`missions:${server.id}:`, () => client.missions.list(server.id));
  const [upload, setUpload] = useState<Upload | null>(null);
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ name: string; why: string }[]>([]);
  const [dragOver, setDragOver] = useState(false);

  /** Every good file goes up, one after another; each bad one is said, and stops none of the others. */
  const send = async (files: FileList | null) => {
    const uploaded: string[] = [];
    const failed: { name: string; why: string }[] = [];
    setNotice(null);
    setRefused([]);
    for (const file of Array.from(files ?? [])) {
      setUpload({ name: file.name, sent: 0, total: file.size });
      try {
        const result = await client.missions.upload(server.id, file, file.name, {
          onProgress: ({ sent, total }) => setUpload({ name: file.name, sent, total }),
        });
        uploaded.push(`${result.filename} (${bytes(result.file_size)})`);
      } catch (err) {
        endIfUnauthorized(err);
        failed.push({ name: file.name, why: describe(err) });
      }
    }
    setUpload(null);
    if (uploaded.length) setNotice(`Uploaded ${uploaded.join(', ')}.`);
    setRefused(failed);
    if (uploaded.length) reload(); // once for all the files: each read counts against the rate limit
  };

  return (
    <div class="missions">
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {notice && (
        <p class="notice success" role="status">
          {notice}
        </p>
      )}
      {refused.length > 0 && (
        <div class="problem" role="alert">
          <span>
            Not uploaded:
            <ul>
              {refused.map((r) => (
                <li key={r.name}>
                  {r.name}: {r.why}
                </li>
              ))}
            </ul>
          </span>
          <button type="button" class="quiet" onClick={() => setRefused([])} aria-label="Dismiss">
            ×
          </button>
        </div>
      )}
      {admin && (
        <div
          class={`drop-zone${dragOver ? ' over' : ''}`}
          onDragOver={(e) => (e.preventDefault(), setDragOver(true))}
          onDragLeave={() => setDragOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragOver(false);
            void send(e.dataTransfer?.files ?? null);
          }}
        >
          {upload ? (
            <label>
              Uploading {upload.name}
              <progress max={upload.total ?? undefined} value={upload.sent} />
              <span class="small">
                {bytes(upload.sent)}
                {upload.total !== null && ` of ${bytes(upload.total)}`}
              </span>
            </label>
          ) : (
            <label>
              Upload a {label.toLowerCase()}
              {extension && ` (${extension})`}: drop it here or choose a file
              <input
                type="file"
                accept={extension}
                multiple
                onChange={(e) => (void send(e.currentTarget.files), (e.currentTarget.value = ''))}
              />
            </label>
          )}
        </div>
      )}
      {data && <RotationEditor server={server} game={game} missions={data.missions} />}
      <h2>Files</h2>
      {data?.missions.length === 0 && <p class="empty">No {label.toLowerCase()} files yet.</p>}
      {data && data.missions.length > 0 && (
        <table class="table">
          <caption class="sr-only">
            {label} files of {server.name}
          </caption>
          {/* Besides its name, what the game reads from a file's name, each part in a column. */}
          <TableHead columns={[label, ...missionParts(data.missions).map(humanise), 'Size', admin && 'Actions']} />
          <tbody>
            {data.missions.map((m) => (
              <tr key={m.filename}>
                <td>{m.name}</td>
                {missionParts(data.missions).map((part) => (
                  <td key={part}>{partsOf(m)[part] ?? ''}</td>
                ))}
                <td>{bytes(m.size_bytes)}</td>
                {admin && (
                  <td class="actions">
                    {playable && (
                      <ConfirmButton
                        label="Play now"
                        class="quiet"
                        ariaLabel={`Play ${m.name} now`}
                        title={`Play ${m.name} now?`}
                        message={`Every player on the server is taken to this ${noun} at once; the rotation is left as it is.`}
                        disabled={server.status !== 'running'}
                        onConfirm={() =>
                          action
                            .run(() => client.missions.play(server.id, m.name))
                            .then((done) => done && setNotice(`Playing ${m.name}: the players are on their way.`))
                        }
                      />
                    )}
                    <ConfirmButton
                      label="Delete"
                      ariaLabel={`Delete ${m.filename}`}
                      title={`Delete ${m.filename}?`}
                      message="The file is removed from the server's disk."
                      onConfirm={() => action.run(() => client.missions.delete(server.id, m.filename)).then((done) => done && reload())}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
