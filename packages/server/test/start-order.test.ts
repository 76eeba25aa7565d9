import 'reflect-metadata';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startOrder } from '../src/modules/start-order.js';
import { featureModules, lifecycleParts } from '../src/compose.js';
import { unitContainer } from './unit/container.js';

const names = (items: { name: string }[]) => items.map((i) => i.name);

describe('the start order of feature modules', () => {
  it('puts each module after what it needs, otherwise keeping the order listed', () => {
    const order = startOrder([
      { name: 'schedules', needs: ['supervisor'] },
      { name: 'jobs' },
      { name: 'supervisor', needs: ['logs', 'jobs'] },
      { name: 'auth' },
      { name: 'logs', needs: ['jobs'] },
    ]);
    assert.deepEqual(names(order), ['jobs', 'auth', 'logs', 'supervisor', 'schedules']);
    assert.deepEqual(names(startOrder([{ name: 'a' }, { name: 'b' }, { name: 'c' }])), ['a', 'b', 'c'], 'a valid list is kept as it is');
  });

  it('fails on a cycle, naming it', () => {
    assert.throws(
      () =>
        startOrder([
          { name: 'jobs' },
          { name: 'a', needs: ['jobs', 'c'] },
          { name: 'b', needs: ['a'] },
          { name: 'c', needs: ['b'] },
          { name: 'd', needs: ['c'] },
        ]),
      { message: 'modules depend on each other in a cycle: a → c → b → a' },
    );
    assert.throws(() => startOrder([{ name: 'a', needs: ['a'] }]), { message: 'modules depend on each other in a cycle: a → a' });
  });

  it('fails on a need that names no module, and on a module registered twice', () => {
    assert.throws(() => startOrder([{ name: 'backups', needs: ['supervisor'] }]), {
      message: 'module backups needs supervisor, which is not registered',
    });
    assert.throws(() => startOrder([{ name: 'a' }, { name: 'a' }]), { message: 'module a is registered twice' });
  });

  it("orders the service's own features as their parts must start", () => {
    const order = names(featureModules());
    const before = (first: string, then: string) =>
      assert.ok(order.indexOf(first) < order.indexOf(then), `${first} starts before ${then}: ${order.join(', ')}`);
    assert.equal(order[0], 'jobs', 'the job runner first (and so stopped last)');
    for (const early of ['cluster', 'nodes']) before(early, 'processes');
    for (const recorded of ['servers', 'supervisor', 'bans', 'backups', 'schedules', 'prometheus', 'webhooks']) before('audit', recorded);
    for (const watcher of ['logs', 'metrics', 'players', 'servers', 'bans']) before(watcher, 'supervisor');
    before('supervisor', 'schedules');
  });

  it('starts the parts in the order the needs give, the job runner first', async () => {
    const unit = await unitContainer();
    try {
      assert.deepEqual(
        lifecycleParts(unit.container).map(([name]) => name),
        [
          'jobs',
          'cluster events',
          'remote figures',
          'rate limits',
          'nodes',
          'audit',
          'history retention',
          'prometheus',
          'webhooks',
          // Background jobs after what they tell (the audit, the webhooks): a job that fails is said.
          'background jobs',
          'background-jobs jobs',
          'remote admin',
          'processes',
          'logs',
          'metrics',
          'players',
          'bans',
          'server glance',
          'own folders',
          'supervisor',
          'backups',
          'database backups',
          'schedules',
          // Its job executors registered once the background jobs run.
          'steam',
          // The Workshop's download executor, after the steam runner it runs on.
          'workshop',
          'workshop jobs',
        ],
      );
    } finally {
      await unit.close();
    }
  });
});
