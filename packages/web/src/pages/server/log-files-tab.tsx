import { useEffect, useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client, endIfUnauthorized, isAdmin } from '../../session.js';
import { Problem, useRetryingLoad } from '../../components/problem.js';
import { Confirm } from '../../components/confirm.js';
import { bytes } from '../../format.js';
import type { TabProps } from './server-page.js';

type LogFile = ResponseOf<Endpoints['listLogFiles']>[number];

/** The game's own log files: download any, delete old ones (the service refuses the one the game writes). */
export function LogFilesTab({ server }: TabProps) {
  const { data, error, reload } = useRetryingLoad(() => client.logs.files(server.id), [server.id]);
  const [actionError, setActionError] = useState<unknown>(null);
  const [deleting, setDeleting] = useState<LogFile | null>(null);
  const [fetching, setFetching] = useState<string | null>(null);
  useEffect(() => endIfUnauthorized(error), [error]);

  // The download needs the bearer token, which a plain link cannot carry: fetch it, then hand it over as a file.
  const download = async (file: LogFile) => {
    setActionError(null);
    setFetching(file.filename);
    try {
      const text = await client.logs.download(server.id, file.filename);
      const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: file.filename });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      endIfUnauthorized(err);
      setActionError(err);
    } finally {
      setFetching(null);
    }
  };
  const remove = async (file: LogFile) => {
    setDeleting(null);
    setActionError(null);
    try {
      await client.logs.deleteFile(server.id, file.filename);
      reload();
    } catch (err) {
      endIfUnauthorized(err);
      setActionError(err);
    }
  };

  return (
    <div>
      <Problem error={error} />
      <Problem error={actionError} onDismiss={() => setActionError(null)} />
      {data?.length === 0 && <p class="empty">No log files yet.</p>}
      {data && data.length > 0 && (
        <table class="table">
          <caption class="sr-only">Log files of {server.name}</caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Size</th>
              <th scope="col">Changed</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {data.map((f) => (
              <tr key={f.filename}>
                <td class="mono">{f.filename}</td>
                <td>{bytes(f.size_bytes)}</td>
                <td>{new Date(f.modified_at).toLocaleString()}</td>
                <td class="row-actions">
                  <button type="button" class="quiet" disabled={fetching === f.filename} onClick={() => download(f)} aria-label={`Download ${f.filename}`}>
                    {fetching === f.filename ? 'Fetching…' : 'Download'}
                  </button>
                  {isAdmin() && (
                    <button type="button" class="quiet danger" onClick={() => setDeleting(f)} aria-label={`Delete ${f.filename}`}>
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deleting && (
        <Confirm title={`Delete ${deleting.filename}?`} message="The file is removed from the server's disk." confirmLabel="Delete" onConfirm={() => remove(deleting)} onCancel={() => setDeleting(null)} />
      )}
    </div>
  );
}
