import { client } from '../../session.js';
import { Problem } from '../../components/problem.js';
import type { ServerRecord } from './server-page.js';
import { useQuery } from '../../cache/use-query.js';

/** The files the game will be given at its next start, as they would be written (admins only: they hold passwords). */
export function ConfigPreview({ server }: { server: ServerRecord }) {
  const { data, error } = useQuery(`preview:${server.id}:`, () => client.config.preview(server.id));
  return (
    <div class="preview">
      <p class="notice">These files hold the server's passwords in plain text: share them with care.</p>
      <Problem error={error} />
      {data &&
        Object.entries(data).map(([label, text]) => (
          <section key={label}>
            <h3 class="mono">{label}</h3>
            <pre class="file">{text}</pre>
          </section>
        ))}
    </div>
  );
}
