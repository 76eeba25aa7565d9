import { useEffect, useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { NewPassword, Username } from '@garrison/core';
import { client, session } from '../session.js';
import { Problem, useAction } from '../components/problem.js';
import { ConfirmButton } from '../components/confirm.js';
import { FormDialog, fieldText } from '../components/form-dialog.js';
import { TableHead } from '../components/table-head.js';
import { useQuery } from '../cache/use-query.js';

type Role = ResponseOf<Endpoints['listUsers']>[number]['role'];

type Account = ResponseOf<Endpoints['listUsers']>[number];

/**
 * The service's accounts (admins only): add one with a role, change another's role or set their
 * password (which ends their sessions: they sign in again), or remove one.
 */
export function Users() {
  const { data, error, reload } = useQuery('users:', () => client.users.list());
  const [creating, setCreating] = useState(false);
  const [settingPassword, setSettingPassword] = useState<Account | null>(null);
  const action = useAction();
  useEffect(() => void (document.title = 'Users · Garrison'), []);

  return (
    <section aria-labelledby="users-title">
      <div class="section-head">
        <h1 id="users-title">Users</h1>
        <button type="button" onClick={() => setCreating(true)}>
          New user
        </button>
      </div>
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {data && (
        <table class="table">
          <caption class="sr-only">Users</caption>
          <TableHead columns={['User', 'Role', 'Last sign-in', 'Actions']} />
          <tbody>
            {data.map((u) => (
              <tr key={u.id}>
                <td>{u.username}</td>
                <td>
                  {u.username === session.value?.username ? (
                    u.role
                  ) : (
                    <select
                      aria-label={`Role of ${u.username}`}
                      value={u.role}
                      onChange={(e) => {
                        const role = e.currentTarget.value as Role;
                        void action.run(() => client.users.update(u.id, { role })).then(() => reload());
                      }}
                    >
                      <option value="viewer">viewer</option>
                      <option value="admin">admin</option>
                    </select>
                  )}
                </td>
                <td>{u.last_login ? new Date(u.last_login).toLocaleString() : 'never'}</td>
                <td class="actions">
                  {u.username !== session.value?.username && (
                    <button
                      type="button"
                      class="quiet"
                      aria-label={`Set the password of ${u.username}`}
                      onClick={() => setSettingPassword(u)}
                    >
                      Set password
                    </button>
                  )}
                  {u.username !== session.value?.username && (
                    <ConfirmButton
                      label="Delete"
                      ariaLabel={`Delete ${u.username}`}
                      title={`Delete ${u.username}?`}
                      message="The account is removed and its sessions end at once."
                      onConfirm={() => action.run(() => client.users.delete(u.id)).then((done) => done && reload())}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {settingPassword && (
        <FormDialog
          title={`New password for ${settingPassword.username}`}
          submitLabel="Set password"
          onClose={() => setSettingPassword(null)}
          onSubmit={async (form) => {
            await client.users.update(settingPassword.id, { password: String(form.get('password') ?? '') });
          }}
        >
          <p class="small">Their sessions end at once: they sign in again with this password.</p>
          <label>
            New password
            <input
              name="password"
              type="password"
              required
              minLength={NewPassword.minLength}
              maxLength={NewPassword.maxLength}
              autoComplete="new-password"
            />
          </label>
        </FormDialog>
      )}
      {creating && (
        <FormDialog
          title="New user"
          submitLabel="Create"
          onClose={() => setCreating(false)}
          onSubmit={async (form) => {
            await client.users.create({
              username: fieldText(form, 'username'),
              password: String(form.get('password') ?? ''),
              role: fieldText(form, 'role') as Role,
            });
            reload();
          }}
        >
          <label>
            Username
            <input name="username" required minLength={Username.minLength} maxLength={Username.maxLength} autoComplete="off" />
          </label>
          <label>
            Password
            <input
              name="password"
              type="password"
              required
              minLength={NewPassword.minLength}
              maxLength={NewPassword.maxLength}
              autoComplete="new-password"
            />
          </label>
          <label>
            Role
            <select name="role" defaultValue="viewer">
              <option value="viewer">viewer: sees everything, changes nothing</option>
              <option value="admin">admin: full control</option>
            </select>
          </label>
        </FormDialog>
      )}
    </section>
  );
}
