import { verifyChain } from '../audit/verify.js';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import type { Store } from './store.js';

/** `garrison audit verify`: 0 when every link of the chain holds; 1, naming the first broken link, otherwise. */
export async function verifyAudit(store: Store, json: boolean): Promise<void> {
  const repos = store.container.resolve<Repositories>(TOKENS.Repositories);
  const { checked, broken, anchorId } = await verifyChain(repos.audit);
  if (json) console.log(JSON.stringify({ ok: broken === null, checked, anchor_id: anchorId, broken }));
  if (broken) {
    if (!json)
      console.error(
        `audit chain broken at ${broken.id === null ? 'its end' : `entry ${broken.id}`}: ${broken.reason} ` +
          `(${checked} entries before it hold)`,
      );
    process.exitCode = 1;
    return;
  }
  if (!json) console.log(`audit chain holds: ${checked} entries${anchorId ? ` after the pruned entry ${anchorId}` : ''}`);
}
