import { inject, injectable } from 'tsyringe';
import type { Knex } from 'knex';
import { defineEndpoint, Type } from '@garrison/core';
import type { FeatureModule } from '../src/modules/feature-module.js';
import { TOKENS } from '../src/tokens.js';
import { isoNow, type Clock } from '../src/jobs/clock.js';

/**
 * A feature outside the service, as small as a feature can be: one endpoint with a scope, one table of
 * its own migration, one job and one lifecycle part. It touches nothing outside this file but the
 * `modules` the test starts the service with.
 */
const Tally = Type.Object({ count: Type.Integer({ minimum: 0 }) }, { $id: 'Tally' });

export const getTally = defineEndpoint({
  operationId: 'getTally',
  method: 'GET',
  path: '/tally',
  tag: 'tally',
  summary: 'The ticks the tally job counted',
  access: 'any',
  scope: 'metrics',
  status: 200,
  response: Tally,
});

class TallyRepository {
  constructor(private readonly knex: Knex) {}

  async count(): Promise<number> {
    const [row] = await this.knex('test_tallies').count({ n: '*' });
    return Number(row.n);
  }

  async add(at: string): Promise<void> {
    await this.knex('test_tallies').insert({ at });
  }
}

@injectable()
class TallyService {
  constructor(
    @inject(TallyRepository) private readonly tallies: TallyRepository,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  tick = () => this.tallies.add(isoNow(this.clock));
  count = () => this.tallies.count();
}

export const TICK_MS = 60_000;

/** The module, and what the test watches of it: its part's starts and stops, and its job's first run. */
export function tallyFeature() {
  const happened: string[] = [];
  let ticked!: () => void;
  const firstTick = new Promise<void>((resolve) => (ticked = resolve));
  const repositories = { tallies: TallyRepository };
  const module: FeatureModule<typeof repositories> = {
    name: 'tally',
    needs: ['jobs', 'auth'],
    repositories,
    services: [TallyService],
    migrations: [
      [
        '001_tallies',
        {
          up: (knex) =>
            knex.schema.createTable('test_tallies', (t) => {
              t.increments('id');
              t.string('at', 32).notNullable();
            }),
          down: (knex) => knex.schema.dropTable('test_tallies'),
        },
      ],
    ],
    endpoints: [getTally],
    routes: (routes, c) => routes.implement(getTally, async () => ({ count: await c.resolve(TallyService).count() })),
    parts: () => [['tally', { start: () => void happened.push('started'), stop: () => void happened.push('stopped') }]],
    jobs: (c) => [
      {
        name: 'tally.tick',
        everyMs: TICK_MS,
        startNow: false,
        run: async () => {
          await c.resolve(TallyService).tick();
          happened.push('ticked');
          ticked();
        },
      },
    ],
  };
  return { module, happened, firstTick };
}
