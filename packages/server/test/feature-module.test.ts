import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '@garrison/server';
import { expectError, startHarness, withDatabase } from './helpers.js';
import { container } from 'tsyringe';
import { tallyFeature, getTally, TICK_MS } from './tally-feature.js';
import { RouteTable } from '../src/http/route-table.js';
import { implementModuleRoutes, moduleEndpoints } from '../src/modules/assembly.js';

// A feature is a folder: given to the service as one module, it is served, documented, scoped, migrated,
// run and started with nothing else edited (issue 32's module test).
describe('a feature module added to the service', () => {
  it('is served, in the OpenAPI document, scoped, migrated, its job run and its part started and stopped', async () => {
    const clock = new FakeClock(new Date('2026-06-01T12:00:00Z'));
    const tally = tallyFeature();
    const h = await startHarness({ clock, modules: [tally.module] });
    try {
      assert.deepEqual(tally.happened, ['started'], 'its part started with the service');

      const served = await h.api('GET', '/tally', { token: h.viewerToken });
      assert.equal(served.status, 200, JSON.stringify(served.body));
      assert.deepEqual(served.body, { success: true, data: { count: 0 }, error: null });
      expectError(await h.api('GET', '/tally'), 401, 'UNAUTHORIZED');

      const doc = (await h.api('GET', '/openapi.json')).body;
      const operation = doc.paths['/tally']?.get;
      assert.equal(operation?.operationId, 'getTally');
      assert.equal(operation['x-scope'], 'metrics');
      assert.match(operation.description, /An API key needs the scope `metrics`/);
      assert.equal(operation.responses['200'].content['application/json'].schema.properties.data.$ref, '#/components/schemas/Tally');

      const keyOf = async (scopes: string[]) => {
        const res = await h.api('POST', '/auth/keys', { token: h.adminToken, body: { name: scopes.join(' '), scopes } });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.data.key as string;
      };
      const refused = expectError(await h.api('GET', '/tally', { token: await keyOf(['servers:read']) }), 403, 'FORBIDDEN');
      assert.match(refused.message, /lacks the scope metrics/);
      assert.equal((await h.api('GET', '/tally', { token: await keyOf(['metrics']) })).status, 200);

      await withDatabase(h, async (knex) => {
        assert.ok(await knex.schema.hasTable('test_tallies'), 'its table was made');
        const names = (await knex('knex_migrations').select('name')).map((r: { name: string }) => r.name);
        assert.ok(names.includes('tally/001_tallies'), `its migration is recorded under its module: ${names.join(', ')}`);
        assert.ok(
          names.includes('001_initial') && names.indexOf('tally/001_tallies') > names.indexOf('019_schedule_action_time'),
          'after the base set',
        );
      });

      await clock.advance(TICK_MS);
      await tally.firstTick;
      assert.equal((await h.api('GET', '/tally', { token: h.adminToken })).body.data.count, 1, 'its job ran on the clock');
    } finally {
      await h.close();
    }
    assert.deepEqual(tally.happened, ['started', 'ticked', 'stopped'], 'its part stopped with the service');
  });
});

describe('the route table serves what the modules declare, and only that', () => {
  const answer = async () => ({ count: 0 });

  it('refuses an endpoint no module declares, one declared twice, and one declared and not implemented', () => {
    assert.throws(() => new RouteTable([]).implement(getTally, answer), {
      message: /getTally is implemented but no feature module declares it/,
    });
    const declaring = (name: string) => ({ name, endpoints: [getTally] });
    assert.throws(() => moduleEndpoints([declaring('a'), declaring('b')]), { message: 'endpoint getTally is declared by modules a and b' });
    const modules = [declaring('a')];
    assert.throws(() => implementModuleRoutes(new RouteTable(moduleEndpoints(modules)), container, modules), {
      message: 'endpoints declared but not implemented: getTally',
    });
    const routes = new RouteTable(moduleEndpoints(modules));
    implementModuleRoutes(routes, container, [{ ...declaring('a'), routes: (r) => r.implement(getTally, answer) }]);
    assert.deepEqual(routes.endpoints(), [getTally]);
  });
});
