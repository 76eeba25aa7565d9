import { useState } from 'preact/hooks';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { ConfirmButton } from '../../components/confirm.js';
import { RotationEditor } from './rotation-editor.js';
import { bytes } from '../../format.js';
import type { TabProps } from './server-page.js';
import { TableHead } from '../../components/table-head.js';
import { useQuery } from '../../cache/use-query.js';

type Upload = { name: string; sent: number; total: number | null };

/** The mission files on the server (upload, delete) and the rotation the game plays them in. */
export function MissionsTab({ server }: TabProps) {
  const admin = isAdmin();
  const { data, error, reload } = useQuery(`missions:${server.id}:`, () => client.missions.list(server.id));
  const [upload, setUpload] = useState<Upload | null>(null);
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const [dragOver, setDragOver] = useState(false);

  const send = async (files: FileList | null) => {
    let uploaded = 0;
    for (const file of Array.from(files ?? [])) {
      setNotice(null);
      setUpload({ name: file.name, sent: 0, total: file.size });
      const done = await action.run(async () => {
        const result = await client.missions.upload(server.id, file, file.name, { onProgress: ({ sent, total }) => setUpload({ name: file.name, sent, total }) });
        setNotice(`${result.filename} uploaded (${bytes(result.file_size)}).`);
      });
      setUpload(null);
      if (!done) break;
      uploaded += 1;
    }
    if (uploaded) reload(); // once for all the files: each read counts against the rate limit
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
              Upload a mission (.pbo): drop it here or choose a file
              <input type="file" accept=".pbo" multiple onChange={(e) => (void send(e.currentTarget.files), (e.currentTarget.value = ''))} />
            </label>
          )}
        </div>
      )}
      {data && <RotationEditor server={server} missions={data.missions} />}
      <h2>Files</h2>
      {data?.missions.length === 0 && <p class="empty">No mission files yet.</p>}
      {data && data.missions.length > 0 && (
        <table class="table">
          <caption class="sr-only">Mission files of {server.name}</caption>
          <TableHead columns={['Mission', 'Terrain', 'Size', admin && 'Actions']} />
          <tbody>
            {data.missions.map((m) => (
              <tr key={m.filename}>
                <td>{m.name}</td>
                <td>{m.terrain}</td>
                <td>{bytes(m.size_bytes)}</td>
                {admin && (
                  <td>
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
