import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { clearCache, entryOf, refresh } from '../../src/cache/store.js';
import { forgetBudget } from '../../src/cache/rate-budget.js';
import { invalidateFor, invalidateMissed } from '../../src/cache/invalidation.js';

interface Read {
  key: string;
  /** How often it was read. */
  count: number;
  entry: ReturnType<typeof entryOf<number>>;
}

/** A cached read, read once; `shown` puts it on the page (a component listens). */
async function cached(key: string, shown = true): Promise<Read> {
  const read: Read = { key, count: 0, entry: entryOf<number>(key, async () => ++read.count) };
  if (shown) read.entry.listeners.add(() => {});
  await refresh(read.entry, false);
  return read;
}

/** Lets the reads an invalidation started finish. */
const reads = () => new Promise((resolve) => setImmediate(resolve));

/** Which of `all` are out of date, and which were read again at once. */
function after(all: Read[]) {
  return { stale: all.filter((r) => r.entry.stale).map((r) => r.key), readAgain: all.filter((r) => r.count > 1).map((r) => r.key) };
}

describe("the console's cache: what a live event makes out of date", () => {
  beforeEach(() => {
    forgetBudget();
    clearCache();
  });

  it("reads a server's bans again after a ban on it, and no other server's; the audit list takes the entry live", async () => {
    const all = [await cached('bans:3:'), await cached('bans:4:'), await cached('audit:3:'), await cached('servers:all')];
    invalidateFor('event', 3, { event_type: 'ban', server_id: 3 });
    await reads();
    assert.deepEqual(after(all), { stale: ['audit:3:'], readAgain: ['bans:3:'] });
  });

  it("reads every server's list again after a server is created, and the config after a change of it", async () => {
    const all = [await cached('servers:all'), await cached('config:3:'), await cached('preview:3:'), await cached('missions:3:')];
    invalidateFor('event', 7, { event_type: 'server_created', server_id: 7 });
    await reads();
    assert.deepEqual(after(all).readAgain, ['servers:all']);
    invalidateFor('event', 3, { event_type: 'config_changed', server_id: 3 });
    await reads();
    assert.deepEqual(after(all).readAgain, ['servers:all', 'config:3:', 'preview:3:']);
  });

  it('leaves what a component patches itself to it, and marks what is not shown for its next showing', async () => {
    const all = [
      await cached('server:3:'),
      await cached('servers:all'),
      await cached('processes:3:'),
      await cached('nodes:'),
      await cached('logfiles:3:', false),
    ];
    invalidateFor('process_status', 3, {});
    await reads();
    assert.deepEqual(after(all), { stale: ['server:3:', 'servers:all', 'processes:3:', 'logfiles:3:'], readAgain: ['nodes:'] });
    invalidateFor('server_status', 3, {});
    await reads();
    assert.deepEqual(after(all).readAgain, ['processes:3:', 'nodes:'], 'a change of status is read again where no component applies it');
  });

  it('reads a backup again when it ends, not while it runs', async () => {
    const backups = await cached('backups:3:');
    invalidateFor('backup', 3, { status: 'running' });
    await reads();
    assert.equal(backups.count, 1);
    invalidateFor('backup', 3, { status: 'done' });
    await reads();
    assert.equal(backups.count, 2);
  });

  describe('after the live connection was away', () => {
    beforeEach(() => mock.timers.enable({ apis: ['Date'], now: 1_000 }));
    afterEach(() => mock.timers.reset());

    it('reads again what was read before it began to connect, of the servers it follows', async () => {
      const before = [await cached('bans:3:'), await cached('logs:4:'), await cached('servers:all')];
      const connectingSince = Date.now() + 1;
      mock.timers.tick(10);
      const during = await cached('bans:3:x');
      invalidateMissed([3], connectingSince);
      await reads();
      assert.deepEqual(after([...before, during]).readAgain, ['bans:3:']);
      invalidateMissed(null, connectingSince);
      await reads();
      assert.deepEqual(
        after([...before, during]).readAgain,
        ['bans:3:', 'logs:4:', 'servers:all'],
        'following every server: everything read before',
      );
    });
  });
});
