import { useEffect, useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { GarrisonApiError } from '@garrison/sdk';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { ConfirmButton } from '../../components/confirm.js';
import { TableHead } from '../../components/table-head.js';
import { useQuery } from '../../cache/use-query.js';
import { JobPanel, useJobRunner } from '../../components/job.js';
import { bytes, when } from '../../format.js';
import type { TabProps } from './server-page.js';

type Item = ResponseOf<Endpoints['listWorkshopItems']>[number];

/** Ids or page URLs, as pasted: one per line, or separated by spaces or commas. */
const workshopIds = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/** A removal the running server refuses, said as what to do (the service's message names the folder; the code stays). */
function removalProblem(err: unknown): unknown {
  if (!(err instanceof GarrisonApiError) || err.code !== 'MOD_IN_USE') return err;
  const what =
    "Not removed: the running server has this mod enabled. Stop the server, or take the mod out of the Mods tab's enabled list, " +
    `then remove it (${err.message})`;
  return new GarrisonApiError(err.status, err.code, what, err.extra);
}

/**
 * The server's Steam Workshop items: their state (an outdated one badged), added by id, page URL or
 * collection, downloaded by a job whose progress shows here, updated, checked, removed.
 */
export function WorkshopTab({ server }: TabProps) {
  const admin = isAdmin();
  const items = useQuery(`workshop:${server.id}:`, () => client.workshop.list(server.id));
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [collection, setCollection] = useState(false);
  const runner = useJobRunner(server.id, 'workshop');
  // An item's state moves with the job (queued, downloading, installed): read again as the job moves on.
  useEffect(() => void (runner.job && items.reload()), [runner.job?.status]);
  const jobNumber = (answer: { job_id: number } | never[]) => (Array.isArray(answer) ? null : answer.job_id);

  const add = (event: Event) => {
    event.preventDefault();
    const ids = workshopIds(text);
    if (!ids.length) return;
    void action.run(async () => {
      if (collection && ids.length > 1) throw new Error('A collection is added alone: give one collection id or URL.');
      const body = collection ? { collection: ids[0] } : { items: ids };
      setNotice(null);
      await runner.start(async () => jobNumber(await client.workshop.add(server.id, body)));
      setText('');
      items.reload();
    });
  };
  const update = () =>
    action.run(async () => {
      const queued = await runner.start(async () => jobNumber(await client.workshop.update(server.id)));
      setNotice(queued ? null : 'Nothing to update: every item is up to date.');
      items.reload();
    });
  const check = () =>
    action.run(async () => {
      const result = await client.workshop.check(server.id);
      items.apply(() => result.items);
      const newly = result.newly_outdated.length;
      const found = newly ? `${newly} newly outdated` : 'nothing new';
      setNotice(`Checked ${result.checked} item${result.checked === 1 ? '' : 's'} with Steam: ${found}.`);
    });
  const remove = (item: Item) =>
    action.run(async () => {
      try {
        setNotice((await client.workshop.remove(server.id, item.workshop_id)).message);
      } catch (err) {
        throw removalProblem(err);
      }
      items.reload();
    });

  const list = items.data ?? [];
  const outdated = list.filter((i) => i.status === 'outdated').length;
  return (
    <div class="workshop">
      <Problem error={items.error} />
      {admin && (
        <form class="toolbar" onSubmit={add}>
          <label class="grow">
            Workshop ids or URLs
            <input
              value={text}
              onInput={(e) => setText(e.currentTarget.value)}
              placeholder="123456789, https://steamcommunity.com/sharedfiles/filedetails/?id=…"
            />
          </label>
          <label class="check">
            <input type="checkbox" checked={collection} onChange={(e) => setCollection(e.currentTarget.checked)} />
            It is a collection
          </label>
          <button type="submit" disabled={runner.running || !text.trim()}>
            Add
          </button>
        </form>
      )}
      <JobPanel runner={runner} label="Workshop download" />
      {admin && (
        <div class="toolbar">
          <button type="button" disabled={runner.running} onClick={update}>
            Update outdated{outdated ? ` (${outdated})` : ''}
          </button>
          <button type="button" class="quiet" onClick={check}>
            Check now
          </button>
        </div>
      )}
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <Problem error={action.error} onDismiss={action.dismiss} />
      {items.data?.length === 0 && <p class="empty">No Workshop items on this server.</p>}
      {list.length > 0 && (
        <table class="table">
          <caption class="sr-only">Workshop items of {server.name}</caption>
          <TableHead columns={['Item', 'Status', 'Size', 'Keys', ...(admin ? [''] : [])]} />
          <tbody>
            {list.map((item) => (
              <tr key={item.workshop_id}>
                <td>
                  {item.name}
                  <div class="mono small">
                    {item.folder ?? '(no folder yet)'} · Workshop {item.workshop_id}
                  </div>
                </td>
                <td>
                  <span class={`status workshop-${item.status}`} data-testid="workshop-status">
                    {item.status}
                  </span>
                  {item.time_updated && <div class="small">Steam: {when(item.time_updated)}</div>}
                  {item.error && (
                    <div class="small danger-text" title={item.error.code}>
                      {item.error.message}
                    </div>
                  )}
                </td>
                <td>{item.size_bytes === null ? '–' : bytes(item.size_bytes)}</td>
                <td class="mono small">{item.keys.join(', ') || '–'}</td>
                {admin && (
                  <td>
                    <ConfirmButton
                      label="Remove"
                      ariaLabel={`Remove ${item.name}`}
                      title={`Remove ${item.name}?`}
                      message={`Its folder ${item.folder ?? ''} and the keys it brought leave the installation (the download stays).`}
                      onConfirm={() => void remove(item)}
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
