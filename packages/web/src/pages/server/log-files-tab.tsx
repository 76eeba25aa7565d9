import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { saveFile } from '../../components/save-file.js';
import { ConfirmButton } from '../../components/confirm.js';
import { bytes } from '../../format.js';
import type { TabProps } from './server-page.js';
import { TableHead } from '../../components/table-head.js';
import { useQuery } from '../../cache/use-query.js';
import { LogViewer, VIEW_LIMIT_BYTES } from './log-viewer.js';

type LogFile = ResponseOf<Endpoints['listLogFiles']>[number];

/**
 * The game's own log files: view one (up to VIEW_LIMIT_BYTES) and search it, download any, delete old ones (the service refuses the one
 * the game writes).
 */
export function LogFilesTab({ server }: TabProps) {
  const { data, error, reload } = useQuery(`logfiles:${server.id}:`, () => client.logs.files(server.id));
  const action = useAction();
  const [fetching, setFetching] = useState<string | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);

  const download = async (file: LogFile) => {
    setFetching(file.filename);
    await action.run(async () => {
      saveFile(await client.logs.download(server.id, file.filename), file.filename);
    });
    setFetching(null);
  };

  return (
    <div>
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {data?.length === 0 && <p class="empty">No log files yet.</p>}
      {data && data.length > 0 && (
        <table class="table">
          <caption class="sr-only">Log files of {server.name}</caption>
          <TableHead columns={['File', 'Size', 'Changed', 'Actions']} />
          <tbody>
            {data.map((f) => (
              <tr key={f.filename}>
                <td class="mono">{f.filename}</td>
                <td>{bytes(f.size_bytes)}</td>
                <td>{new Date(f.modified_at).toLocaleString()}</td>
                <td class="row-actions">
                  {f.size_bytes <= VIEW_LIMIT_BYTES ? (
                    <button
                      type="button"
                      class="quiet"
                      aria-pressed={viewing === f.filename}
                      onClick={() => setViewing(viewing === f.filename ? null : f.filename)}
                      aria-label={`View ${f.filename}`}
                    >
                      View
                    </button>
                  ) : (
                    <span class="small" title={`Larger than ${bytes(VIEW_LIMIT_BYTES)}: download it to read it`}>
                      Too large to view
                    </span>
                  )}
                  <button
                    type="button"
                    class="quiet"
                    disabled={fetching === f.filename}
                    onClick={() => download(f)}
                    aria-label={`Download ${f.filename}`}
                  >
                    {fetching === f.filename ? 'Fetching…' : 'Download'}
                  </button>
                  {isAdmin() && (
                    <ConfirmButton
                      label="Delete"
                      ariaLabel={`Delete ${f.filename}`}
                      title={`Delete ${f.filename}?`}
                      message="The file is removed from the server's disk."
                      onConfirm={() => action.run(() => client.logs.deleteFile(server.id, f.filename)).then((done) => done && reload())}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {viewing && <LogViewer key={viewing} serverId={server.id} filename={viewing} onClose={() => setViewing(null)} />}
    </div>
  );
}
