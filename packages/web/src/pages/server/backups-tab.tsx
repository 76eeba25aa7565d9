import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { fileNamePart, saveFile } from '../../components/save-file.js';
import { ConfirmButton } from '../../components/confirm.js';
import { TableHead } from '../../components/table-head.js';
import { useQuery } from '../../cache/use-query.js';
import { useLiveEvents } from '../../live.js';
import { bytes, localTimes } from '../../format.js';
import type { TabProps } from './server-page.js';
import { IDLE_STATUSES } from '@garrison/core';
import { useGame } from '../../games.js';

type Backup = ResponseOf<Endpoints['listBackups']>[number];

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The server's backups: make one (with its progress), lock, note, download, restore, delete. */
export function BackupsTab({ server }: TabProps) {
  const admin = isAdmin();
  const { data, error, reload } = useQuery(`backups:${server.id}:`, () => client.backups.list(server.id));
  const action = useAction();
  const [written, setWritten] = useState<Record<number, number>>({});
  const [notice, setNotice] = useState<string | null>(null);
  // What a restore overwrites, in the game's words (its adapter knows what a backup holds).
  const contents = useGame(server.game_type)?.presentation.backup_contents ?? 'files a backup holds';
  useLiveEvents(server.id, {
    backup: (event) => {
      setWritten((all) => ({ ...all, [event.data.backup_id]: event.data.bytes }));
      if (event.data.status !== 'running') reload();
    },
  });

  const create = (withMissions: boolean) =>
    action.run(async () => (await client.backups.create(server.id, { include_missions: withMissions }), setNotice(null), reload()));
  const lock = (b: Backup) => action.run(async () => (await client.backups.update(server.id, b.id, { locked: !b.locked }), reload()));
  const note = (b: Backup) => {
    const text = window.prompt('Note', b.note ?? '');
    if (text !== null) void action.run(async () => (await client.backups.update(server.id, b.id, { note: text || null }), reload()));
  };
  const restore = (b: Backup) =>
    action.run(async () => setNotice(localTimes((await client.backups.restore(server.id, b.id)).message, when)));
  const remove = (b: Backup) => action.run(async () => (await client.backups.delete(server.id, b.id), reload()));
  const download = (b: Backup) =>
    action.run(async () => {
      saveFile(await client.backups.download(server.id, b.id), `${fileNamePart(server.name)}-backup-${b.id}.tar.gz`);
    });
  const stopped = IDLE_STATUSES.includes(server.status);

  return (
    <div class="backups">
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {admin && (
        <div class="toolbar">
          <button type="button" onClick={() => create(false)}>
            Back up now
          </button>
          <button type="button" class="quiet" onClick={() => create(true)}>
            Back up with missions
          </button>
          <span class="small">Keeps {server.backup_keep} automatic backups; manual and locked ones are never pruned.</span>
        </div>
      )}
      {notice && (
        <p class="notice success" role="status">
          {notice}
        </p>
      )}
      {data?.length === 0 && <p class="empty">No backups yet.</p>}
      {data && data.length > 0 && (
        <table class="table">
          <caption class="sr-only">Backups of {server.name}</caption>
          <TableHead columns={['Made', 'Kind', 'Status', 'Size', 'Note', '']} />
          <tbody>
            {data.map((b) => (
              <tr key={b.id} data-backup-id={b.id}>
                <td>
                  {when(b.created_at)}
                  {b.locked && <span class="small"> · locked</span>}
                </td>
                <td>{b.kind}</td>
                <td>
                  {b.status === 'running' ? `writing… ${bytes(written[b.id] ?? 0)}` : b.status}
                  {b.error && <div class="small">{b.error}</div>}
                </td>
                <td>{b.size_bytes === null ? '—' : bytes(b.size_bytes)}</td>
                <td>{b.note ?? ''}</td>
                <td class="actions">
                  {b.status === 'done' && admin && (
                    <>
                      <button type="button" class="quiet" onClick={() => download(b)}>
                        Download
                      </button>
                      <button type="button" class="quiet" onClick={() => lock(b)}>
                        {b.locked ? 'Unlock' : 'Lock'}
                      </button>
                      <button type="button" class="quiet" onClick={() => note(b)}>
                        Note
                      </button>
                      {stopped ? (
                        <ConfirmButton
                          label="Restore"
                          class="quiet"
                          ariaLabel={`Restore the backup of ${when(b.created_at)}`}
                          title={`Restore the backup of ${when(b.created_at)}?`}
                          message={
                            `This overwrites ${server.name}'s ${contents}${b.include_missions ? ', its missions' : ''} and its config ` +
                            `sections with what they were then. Logs and mods are not touched.`
                          }
                          onConfirm={() => restore(b)}
                        />
                      ) : (
                        <span class="small" title="Stop the server to restore">
                          Stop to restore
                        </span>
                      )}
                      {!b.locked && (
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete the backup of ${when(b.created_at)}`}
                          title="Delete this backup?"
                          message="Its archive is removed from the disk."
                          onConfirm={() => remove(b)}
                        />
                      )}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
