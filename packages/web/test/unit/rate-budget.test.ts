import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { budgetLeft, forgetBudget, noteBudget, permit } from '../../src/cache/rate-budget.js';

const MINUTE = 60_000;

/** Whether `promise` has settled by now (after the microtasks queued so far). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise<void>((resolve) => queueMicrotask(resolve));
  await Promise.resolve();
  return done;
}

describe("the console's rate budget", () => {
  beforeEach(() => {
    mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 1_000_000 });
    forgetBudget();
  });
  afterEach(() => mock.timers.reset());
  const budget = (remaining: number, limit = 60) => noteBudget({ limit, remaining, resetAt: Date.now() + MINUTE });

  it('lets every read through while no limit is known, or once the window has passed', async () => {
    assert.equal(budgetLeft(), null);
    await permit('background');
    budget(0);
    mock.timers.tick(MINUTE);
    assert.equal(budgetLeft(), null, 'the window is over');
    await permit('background');
  });

  it('counts each read at once, so that reads made together do not all see the same budget', async () => {
    budget(30);
    await Promise.all([permit('background'), permit('person'), permit('background')]);
    assert.equal(budgetLeft(), 27);
  });

  it('holds background refreshes while a third of the budget is left, until the budget is whole again', async () => {
    budget(20); // a third of 60
    const waits: number[] = [];
    const background = permit('background', (seconds) => waits.push(seconds));
    assert.equal(await settled(background), false);
    assert.deepEqual(waits, [60], 'told how long it waits');
    await permit('person'); // a person's read still goes
    assert.equal(budgetLeft(), 19);
    mock.timers.tick(MINUTE + 249);
    assert.equal(await settled(background), false);
    mock.timers.tick(1);
    assert.equal(await settled(background), true);
  });

  it("holds even a person's read when almost nothing is left", async () => {
    budget(3);
    const waits: number[] = [];
    const person = permit('person', (seconds) => waits.push(seconds));
    assert.equal(await settled(person), false);
    mock.timers.tick(30_000);
    assert.equal(await settled(person), false);
    assert.deepEqual(waits, [60]);
    mock.timers.tick(30_250);
    assert.equal(await settled(person), true);
    budget(4);
    await permit('person');
    assert.equal(budgetLeft(), 3, 'with four left a person may read');
  });

  it('keeps reserves in proportion to a small limit', async () => {
    budget(2, 6); // background keeps 2, a person keeps 1
    assert.equal(await settled(permit('background')), false);
    await permit('person');
    assert.equal(budgetLeft(), 1);
  });
});
