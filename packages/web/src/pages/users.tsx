import { useEffect, useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { NewPassword, Username } from '@garrison/core';
import { client, endIfUnauthorized, session } from '../session.js';
import { Problem, useRetryingLoad } from '../components/problem.js';
import { Confirm } from '../components/confirm.js';
import { FormDialog, fieldText } from '../components/form-dialog.js';

type User = ResponseOf<Endpoints['listUsers']>[number];

/** The service's accounts (admins only): add one with a role, or remove one, which ends its sessions. */
export function Users() {
  const { data, error, reload } = useRetryingLoad(() => client.users.list(), []);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  useEffect(() => endIfUnauthorized(error), [error]);
  useEffect(() => void (document.title = 'Users · Garrison'), []);

  const remove = async (user: User) => {
    setDeleting(null);
    setActionError(null);
    try {
      await client.users.delete(user.id);
      reload();
    } catch (err) {
      endIfUnauthorized(err);
      setActionError(err);
    }
  };

  return (
    <section aria-labelledby="users-title">
      <div class="section-head">
        <h1 id="users-title">Users</h1>
        <button type="button" onClick={() => setCreating(true)}>
          New user
        </button>
      </div>
      <Problem error={error} />
      <Problem error={actionError} onDismiss={() => setActionError(null)} />
      {data && (
        <table class="table">
          <caption class="sr-only">Users</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Role</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {data.map((u) => (
              <tr key={u.id}>
                <td>{u.username}</td>
                <td>{u.role}</td>
                <td>{u.last_login ? new Date(u.last_login).toLocaleString() : 'never'}</td>
                <td>
                  {u.username !== session.value?.username && (
                    <button type="button" class="quiet danger" onClick={() => setDeleting(u)} aria-label={`Delete ${u.username}`}>
                      Delete
                    </button>
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
            await client.users.create({ username: fieldText(form, 'username'), password: String(form.get('password') ?? ''), role: fieldText(form, 'role') as User['role'] });
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
      {deleting && (
        <Confirm
          title={`Delete ${deleting.username}?`}
          message="The account is removed and its sessions end at once."
          confirmLabel="Delete"
          onConfirm={() => remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
