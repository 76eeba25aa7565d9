import { useEffect } from 'preact/hooks';
import { signal } from '@preact/signals';
import { session, signOut } from './session.js';
import { SignIn } from './pages/sign-in.js';
import { Dashboard } from './pages/dashboard.js';

/** The page in the address's fragment (`#/`, `#/servers/3`), so that the service serves one page for all. */
const route = signal(location.hash.slice(1) || '/');
addEventListener('hashchange', () => (route.value = location.hash.slice(1) || '/'));

export function App() {
  const who = session.value;
  useEffect(() => {
    document.title = who ? 'Garrison' : 'Sign in · Garrison';
  }, [who]);
  if (!who) return <SignIn />;
  return (
    <div class="shell">
      <header class="top">
        <a class="brand" href="#/">
          Garrison
        </a>
        <nav aria-label="Main">
          <a href="#/" aria-current={route.value === '/' ? 'page' : undefined}>
            Servers
          </a>
        </nav>
        <span class="who">
          {who.username} <span class="role">{who.role}</span>
        </span>
        <button type="button" class="quiet" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main>
        <Dashboard />
      </main>
    </div>
  );
}
