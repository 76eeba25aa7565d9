import { client, signOut } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { ConfirmButton } from '../components/confirm.js';
import { TableHead } from '../components/table-head.js';
import { useQuery } from '../cache/use-query.js';
import { when } from '../format.js';

/** Where one is signed in: each session with where and what from; end one, or sign out everywhere. */
export function Sessions() {
  const { data, error, reload } = useQuery('sessions:', () => client.auth.sessions(), 0);
  const action = useAction();
  return (
    <section aria-labelledby="sessions-title">
      <div class="section-head">
        <h2 id="sessions-title">Sessions</h2>
        <ConfirmButton
          label="Sign out everywhere"
          title="Sign out everywhere?"
          message="Every session ends at once, this one too: each browser and client signs in again."
          onConfirm={() => action.run(() => client.auth.endAllSessions()).then((done) => done && signOut('You signed out everywhere.'))}
        />
      </div>
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {data && (
        <table class="table">
          <caption class="sr-only">Sessions</caption>
          <TableHead columns={['Signed in', 'Last used', 'From', 'With', 'Actions']} />
          <tbody>
            {data.map((s) => (
              <tr key={s.id} data-session-id={s.id}>
                <td>
                  {when(s.created_at)} {s.current && <span class="badge">this one</span>}
                </td>
                <td>{when(s.last_seen_at)}</td>
                <td>{s.address ?? '–'}</td>
                <td class="snippet" title={s.user_agent ?? ''}>
                  {s.user_agent?.slice(0, 60) ?? '–'}
                </td>
                <td class="actions">
                  {!s.current && (
                    <ConfirmButton
                      label="End"
                      ariaLabel={`End the session from ${s.address ?? 'somewhere'} signed in ${when(s.created_at)}`}
                      title="End this session?"
                      message={
                        `The browser or client signed in ${when(s.created_at)} from ${s.address ?? 'an unknown address'} is ` +
                        `signed out at once.`
                      }
                      onConfirm={() => void action.run(() => client.auth.endSession(s.id)).then(() => reload())}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
