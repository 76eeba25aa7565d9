import { unitContainer, type UnitContainer } from './container.js';
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TOKENS } from '../../src/tokens.js';
import type { JobRunner } from '../../src/jobs/runner.js';

/** A promise and the function that resolves it: a run the test lets end when it says. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the job runner on the fake clock', () => {
  let u: UnitContainer;
  let jobs: JobRunner;
  beforeEach(async () => {
    u = await unitContainer();
    jobs = u.resolve(TOKENS.Jobs);
  });
  afterEach(() => u.close());

  it('plans the next run an interval after the end of the last, never overlapping it', async () => {
    const starts: number[] = [];
    const slow = gate();
    jobs.every({
      name: 'slow',
      everyMs: 1000,
      run: async () => {
        starts.push(u.clock.now());
        if (starts.length === 1) await slow.opened;
      },
    });
    await u.clock.advance(5000);
    assert.equal(starts.length, 1, 'the first run is still under way: no second one starts beside it');
    slow.open();
    await u.clock.advance(0);
    assert.deepEqual(
      u.clock.timers.filter((t) => t.label === 'slow'),
      [{ inMs: 1000, label: 'slow' }],
      'the next run is planned from the end of the first',
    );
    await u.clock.advance(1000);
    assert.deepEqual(
      starts.map((t) => t - starts[0]),
      [0, 6000],
    );
  });

  it('waits a first interval when asked, and runs a job once with after()', async () => {
    let periodic = 0;
    let once = 0;
    jobs.every({ name: 'later', everyMs: 1000, startNow: false, run: async () => void periodic++ });
    jobs.after('once', 500, async () => void once++);
    await u.clock.advance(999);
    assert.deepEqual([periodic, once], [0, 1]);
    await u.clock.advance(5000);
    assert.equal(once, 1, 'a delayed job runs once');
    assert.equal(periodic, 5);
  });

  it('keeps a failure for its status, logs it and runs again at the interval', async () => {
    let runs = 0;
    jobs.every({
      name: 'flaky',
      everyMs: 1000,
      run: async () => {
        runs += 1;
        if (runs === 1) throw new Error('the database blinked');
      },
    });
    await u.clock.advance(0);
    const failed = jobs.status().find((s) => s.name === 'flaky')!;
    assert.equal(failed.last_error, 'the database blinked');
    assert.equal(failed.next_run_at, new Date(u.clock.now() + 1000).toISOString());
    await u.clock.advance(1000);
    const recovered = jobs.status().find((s) => s.name === 'flaky')!;
    assert.deepEqual([recovered.runs, recovered.last_error], [2, null]);
  });

  it('runs a run-now asked for during a run right after it, once', async () => {
    let runs = 0;
    const first = gate();
    const job = jobs.every({
      name: 'busy',
      everyMs: 60_000,
      run: async () => {
        runs += 1;
        if (runs === 1) await first.opened;
      },
    });
    await u.clock.advance(0);
    const a = job.runNow();
    const b = job.runNow();
    assert.equal(a, b, 'two asks during one run share the run after it');
    first.open();
    await a;
    assert.equal(runs, 2);
  });

  it('stops every job and waits for the runs under way; nothing runs or is added after', async () => {
    const running = gate();
    let finished = false;
    jobs.every({
      name: 'long',
      everyMs: 1000,
      run: async () => {
        await running.opened;
        finished = true;
      },
    });
    await u.clock.advance(0);
    const stopped = jobs.stop();
    let stopDone = false;
    void stopped.then(() => (stopDone = true));
    await u.clock.advance(0);
    assert.equal(stopDone, false, 'stop waits for the run under way');
    running.open();
    await stopped;
    assert.equal(finished, true);
    assert.deepEqual(u.clock.timers, []);
    assert.throws(() => jobs.every({ name: 'late', everyMs: 1000, run: async () => {} }), /after the job runner stopped/);
  });

  it('cancels the jobs of a prefix, and replaces a job added again under its name', async () => {
    const ran: string[] = [];
    for (const name of ['restart:3:0', 'restart:3:1', 'restart:4:0']) jobs.after(name, 1000, async () => void ran.push(name));
    jobs.cancelAll('restart:3:');
    let replaced = 0;
    jobs.every({ name: 'twice', everyMs: 1000, startNow: false, run: async () => void replaced++ });
    jobs.every({ name: 'twice', everyMs: 5000, startNow: false, run: async () => void (replaced += 100) });
    await u.clock.advance(5000);
    assert.deepEqual(ran, ['restart:4:0']);
    assert.equal(replaced, 100, 'only the second job of that name runs');
  });
});
