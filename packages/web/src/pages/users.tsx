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

/** The service's accounts (admins only): add one with a role, or remove one, which ends its sessions. */
export function Users() {
  const { data, error, reload } = useQuery('users:', () => client.users.list());
  const [creating, setCreating] = useState(false);
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
                <td>{u.role}</td>
                <td>{u.last_login ? new Date(u.last_login).toLocaleString() : 'never'}</td>
                <td>
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
      {creating && (
        <FormDialog
          title="New user"
          submitLabel="Create"
          onClose={() => setCreating(false)}
          onSubmit={async (form) => {
            await client.users.create({ username: fieldText(form, 'username'), password: String(form.get('password') ?? ''), role: fieldText(form, 'role') as Role });
            reload();
          }}
        >
          <label>
            Username
            <input name="username" required minLength={Username.minLength} maxLength={Username.maxLength} autoComplete="off" />
          </label>
          <label>
            Password
            <input name="password" type="password" required minLength={NewPassword.minLength} maxLength={NewPassword.maxLength} autoComplete="new-password" />
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
