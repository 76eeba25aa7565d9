import { defineEndpoint, Nullable, Type } from '@garrison/core';
import type { FeatureModule } from '../src/modules/feature-module.js';
import { JobExecutors, JobFailure, type JobContext } from '../src/background-jobs/executors.js';
import { BackgroundJobService } from '../src/background-jobs/service.js';

/**
 * A feature outside the service that runs background jobs the test drives, as a real feature would: it
 * registers its executor at start and queues jobs through the service, over an endpoint of its own.
 * A `test.gated` job reports half its progress and a line, then waits for the test to release it (or
 * for its signal); its payload may make it fail with a code, or ignore its signal.
 */
const enqueueTestJob = defineEndpoint({
  operationId: 'enqueueTestJob',
  method: 'POST',
  path: '/test-jobs',
  tag: 'test',
  summary: 'Queue a test job',
  access: 'admin',
  scope: 'servers:write',
  body: Type.Object({
    server_id: Nullable(Type.Integer()),
    fail: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
    chatty: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  }),
  status: 202,
  response: Type.Object({ job_id: Type.Integer() }),
});

interface Gate {
  started: Promise<void>;
  start(): void;
  release(): void;
  released: Promise<void>;
}

export function jobKindsFeature() {
  const gates = new Map<number, Gate>();
  const gate = (id: number): Gate => {
    let g = gates.get(id);
    if (!g) {
      let start!: () => void;
      let release!: () => void;
      const started = new Promise<void>((resolve) => (start = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      g = { started, start, released, release };
      gates.set(id, g);
    }
    return g;
  };
  const aborted: number[] = [];
  const module: FeatureModule = {
    name: 'test-jobs',
    needs: ['background-jobs'],
    endpoints: [enqueueTestJob],
    routes: (routes, c) =>
      routes.implement(enqueueTestJob, async ({ body, actor }) => {
        const { server_id, ...payload } = body;
        const job = await c.resolve(BackgroundJobService).enqueue('test.gated', payload, server_id, actor);
        return { job_id: job.id };
      }),
    parts: (c) => [
      [
        'test jobs',
        {
          start: () =>
            c.resolve(JobExecutors).register('test.gated', {
              execute: async ({ jobId, payload, signal, progress, log }: JobContext) => {
                const g = gate(jobId);
                // A chatty job: many reports, of which the database sees at most one a heartbeat.
                for (let i = 0; i < Number(payload.chatty ?? 0); i += 1) log(`chatter ${i} ${'x'.repeat(600)}`);
                progress(0.5);
                log('half way');
                g.start();
                await new Promise<void>((resolve, reject) => {
                  void g.released.then(resolve);
                  signal.addEventListener('abort', () => (aborted.push(jobId), reject(signal.reason as Error)), { once: true });
                });
                const fail = payload.fail as { code: string; message: string } | undefined;
                if (fail) throw new JobFailure(fail.code, fail.message);
                log('done');
              },
            }),
        },
      ],
    ],
  };
  return { module, gate, aborted };
}
