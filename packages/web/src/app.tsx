import { useEffect } from 'preact/hooks';
import { signal } from '@preact/signals';
import { client, isAdmin, session, signOutHere } from './session.js';
import { closeLive } from './live.js';
import { useQuery } from './cache/use-query.js';
import { SignIn } from './pages/sign-in.js';
import { Dashboard } from './pages/dashboard.js';
import { Account } from './pages/account.js';
import { lazy } from './components/lazy.js';

// Pages other than the dashboard load when first shown, to keep the first download small (web README,
// Bundle size): the server page with its tabs, and the rarely opened ones.
const ServerPage = lazy(() => import('./pages/server/server-page.js').then((m) => m.ServerPage));
const Users = lazy(() => import('./pages/users.js').then((m) => m.Users));
const Nodes = lazy(() => import('./pages/nodes.js').then((m) => m.Nodes));
const Notifications = lazy(() => import('./pages/notifications.js').then((m) => m.Notifications));
const SteamAccount = lazy(() => import('./pages/steam-account.js').then((m) => m.SteamAccount));
const Audit = lazy(() => import('./pages/audit.js').then((m) => m.Audit));

/** The page in the address's fragment (`#/`, `#/servers/3/config`), so that the service serves one page for all. */
const route = signal(location.hash.slice(1) || '/');
addEventListener('hashchange', () => (route.value = location.hash.slice(1) || '/'));

function Page({ path }: { path: string }) {
  // An admin who must enrol in two-factor sign-in sees the account page only, until they have.
  const twoFactor = useQuery('two-factor:', () => client.auth.twoFactor.status());
  if (twoFactor.data?.required && !twoFactor.data.enabled) return <Account />;
  const server = /^\/servers\/(\d+)(?:\/([a-z]+))?$/.exec(path);
  if (server) return <ServerPage id={Number(server[1])} tab={server[2] ?? 'console'} />;
  if (path === '/users' && isAdmin()) return <Users />;
  if (path === '/notifications' && isAdmin()) return <Notifications />;
  if (path === '/audit' && isAdmin()) return <Audit />;
  if (path === '/steam' && isAdmin()) return <SteamAccount />;
  if (path === '/account') return <Account />;
  if (path === '/nodes') return <Nodes />;
  return <Dashboard />;
}

export function App() {
  const who = session.value;
  useEffect(() => {
    if (!who) {
      document.title = 'Sign in · Garrison';
      closeLive(); // the next user's pages open their own, with their own token
    } else document.title = 'Garrison';
  }, [who]);
  if (!who) return <SignIn />;
  return <SignedIn who={who} />;
}

/** The console for a signed-in user; the session is checked once per page load (an admin may have ended it). */
function SignedIn({ who }: { who: NonNullable<typeof session.value> }) {
  // Once per page load (every later read would find out too: a refused token signs out, see session.ts).
  useQuery(`me:${who.username}`, () => client.auth.me(), Infinity);
  const path = route.value;
  const here = (prefix: string) => (prefix === '/' ? path === '/' || path.startsWith('/servers') : path.startsWith(prefix)) || undefined;
  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/">
          Garrison
        </a>
        <nav aria-label="Main">
          <a href="#/" aria-current={here('/') && 'page'}>
            Servers
          </a>
          <a href="#/nodes" aria-current={here('/nodes') && 'page'}>
            Nodes
          </a>
          {who.role === 'admin' && (
            <a href="#/users" aria-current={here('/users') && 'page'}>
              Users
            </a>
          )}
          {who.role === 'admin' && (
            <a href="#/notifications" aria-current={here('/notifications') && 'page'}>
              Notifications
            </a>
          )}
          {who.role === 'admin' && (
            <a href="#/audit" aria-current={here('/audit') && 'page'}>
              Audit
            </a>
          )}
          {who.role === 'admin' && (
            <a href="#/steam" aria-current={here('/steam') && 'page'}>
              Steam
            </a>
          )}
          <a href="#/account" aria-current={here('/account') && 'page'}>
            Account
          </a>
        </nav>
        <span class="who">
          {who.username} <span class="role">{who.role}</span>
        </span>
        <button type="button" class="quiet" onClick={() => void signOutHere()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page path={path} />
      </main>
    </div>
  );
}
