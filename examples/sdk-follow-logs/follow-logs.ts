// Log in, list the servers, start one and follow its log lines live: the SDK's quick start, run as it
// is by packages/sdk/test/examples.test.ts.
//
//   GARRISON_URL=http://127.0.0.1:8080 GARRISON_USERNAME=admin GARRISON_PASSWORD=… \
//     node --import tsx examples/sdk-follow-logs/follow-logs.ts [SERVER_ID] [LINES]
import { GarrisonApiError, GarrisonClient } from '@garrison/sdk';

const client = new GarrisonClient({ baseUrl: process.env.GARRISON_URL ?? 'http://127.0.0.1:8080', rateLimitRetries: 2 });
await client.login(process.env.GARRISON_USERNAME ?? 'admin', process.env.GARRISON_PASSWORD ?? '');

const servers = await client.servers.list();
for (const s of servers) console.log(`#${s.id} ${s.name} (${s.game_type}) ${s.status}`);
const id = Number(process.argv[2] ?? servers[0]?.id);
if (!id) throw new Error('no server to start: create one first');
const wanted = Number(process.argv[3] ?? 10);

// Subscribe first, so that not a line of the start is missed.
let seen = 0;
const done = new Promise<void>((resolve, reject) => {
  const subscription = client.events.subscribe(
    { serverIds: [id] },
    {
      server_status: (e) => console.log(`status: ${e.data.status}`),
      log: (e) => {
        console.log(`${e.data.timestamp} [${e.data.level}] ${e.data.message}`);
        if (++seen >= wanted) {
          subscription.close();
          resolve();
        }
      },
      closed: (error) => error && reject(error),
    },
  );
  subscription.ready.then(async () => {
    try {
      const started = await client.servers.start(id);
      console.log(`started server ${id}, pid ${started.pid}`);
    } catch (err) {
      // Already running is fine: its lines are followed all the same.
      if (!(err instanceof GarrisonApiError && err.code === 'SERVER_ALREADY_RUNNING'))
        reject(err instanceof Error ? err : new Error(String(err)));
    }
  }, reject);
});
await done;
console.log(`followed ${seen} lines`);
