import { unitContainer, type UnitContainer } from './container.js';
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SYSTEM_ACTOR, userActor, type GarrisonEvent } from '@garrison/core';
import { TOKENS } from '../../src/tokens.js';
import { AuditService } from '../../src/audit/service.js';
import { ServerService } from '../../src/servers/service.js';
import { verifyChain } from '../../src/audit/verify.js';
import { AuditRepository } from '../../src/db/repositories/audit.js';

const ADMIN = userActor({ id: 1, username: 'admin' });

describe('the audit trail, in the transaction of the change', () => {
  let u: UnitContainer;
  let audit: AuditService;
  let serverId: number;
  const published: GarrisonEvent[] = [];
  const entries = () => u.db.knex('audit_entries').orderBy('id').select('event_type', 'server_id', 'target_kind', 'target_name');

  beforeEach(async () => {
    u = await unitContainer();
    audit = u.resolve(AuditService);
    serverId = (
      await u.resolve(ServerService).create({ name: 'Alpha', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2302 }, ADMIN)
    ).id;
    published.length = 0;
    u.resolve(TOKENS.Events).subscribe((event) => void (event.type === 'audit' && published.push(event)));
  });
  afterEach(() => u.close());

  it('rolls the entry back with a change that fails, and tells no one of it', async () => {
    const before = await entries();
    await assert.rejects(
      audit.inTransaction(async (trx) => {
        await trx('servers').where({ id: serverId }).update({ description: 'half done' });
        await audit.record(trx, { serverId, type: 'server_updated', actor: ADMIN, detail: { fields: ['description'] } });
        throw new Error('the change failed after its entry');
      }),
      /the change failed/,
    );
    assert.deepEqual(await entries(), before);
    assert.equal((await u.db.knex('servers').where({ id: serverId }).first()).description, null);
    await Promise.resolve();
    assert.deepEqual(published, []);
    assert.equal((await verifyChain(new AuditRepository(u.db.knex))).broken, null, 'the head rolled back too');
  });

  it("publishes a server's entry once its change has committed; an entry about no server is stored only", async () => {
    let committed = false;
    const done = audit.inTransaction(async (trx) => {
      await audit.record(trx, { serverId, type: 'server_updated', actor: ADMIN, detail: { fields: ['name'] } });
      await audit.record(trx, { serverId: null, type: 'user_created', actor: SYSTEM_ACTOR, target: { kind: 'user', id: 7, name: 'ops' } });
      assert.deepEqual(published, [], 'nothing told before the commit');
      committed = true;
    });
    await done;
    assert.ok(committed);
    assert.deepEqual(
      published.map((e) => [(e.data as { event_type: string }).event_type, e.server_id]),
      [['server_updated', serverId]],
    );
    assert.deepEqual((await entries()).slice(-2), [
      { event_type: 'server_updated', server_id: serverId, target_kind: 'server', target_name: 'Alpha' },
      { event_type: 'user_created', server_id: null, target_kind: 'user', target_name: 'ops' },
    ]);
    const { broken, checked } = await verifyChain(new AuditRepository(u.db.knex));
    assert.equal(broken, null);
    assert.equal(checked, 3);
  });

  it("keeps a deleted server's entries: nothing cascades", async () => {
    await u.resolve(ServerService).delete(serverId, ADMIN);
    assert.deepEqual(
      (await entries()).map((e) => e.event_type),
      ['server_created', 'server_deleted'],
    );
    assert.equal((await verifyChain(new AuditRepository(u.db.knex))).broken, null);
  });
});
