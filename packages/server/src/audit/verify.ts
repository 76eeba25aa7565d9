import type { AuditRepository } from '../db/repositories/audit.js';
import { ChainVerifier, type BrokenLink, type ChainHead } from './chain.js';

interface Verification {
  /** Entries whose link was checked and held. */
  checked: number;
  /** The first broken link; null when the whole chain holds. */
  broken: BrokenLink | null;
  /** The last pruned entry the chain starts from (0: nothing pruned). */
  anchorId: number;
}

/** A running service appends and prunes while the trail is read: a walk that saw the head move is walked again. */
const WALKS = 5;

/**
 * Walks the trail in id order, from the anchor to the head read before the walk, and stops at the first
 * broken link. Entries a running service appends meanwhile lie past that head and are left for the next
 * run; a prune meanwhile moves the anchor: either way the head moved, and the walk is done again.
 */
export async function verifyChain(audit: AuditRepository): Promise<Verification> {
  for (let walk = 1; ; walk++) {
    const head = await audit.head();
    const { verifier, pastHead } = await walkTo(audit, head);
    let broken = verifier.finish();
    const after = await audit.head();
    const moved = after.last_id !== head.last_id || after.anchor_id !== head.anchor_id;
    if (moved && walk < WALKS) continue;
    // Rows past a head that did not move were written without it: by hand.
    if (!broken && pastHead !== null && !moved) {
      broken = { id: pastHead, reason: `entry ${pastHead} lies past the head (${head.last_id}): it was inserted at the end` };
    }
    return { checked: verifier.checked, broken, anchorId: head.anchor_id };
  }
}

async function walkTo(audit: AuditRepository, head: ChainHead): Promise<{ verifier: ChainVerifier; pastHead: number | null }> {
  const verifier = new ChainVerifier(head);
  for await (const entry of audit.stored()) {
    if (entry.id > head.last_id) return { verifier, pastHead: entry.id };
    if (!verifier.next(entry)) break;
  }
  return { verifier, pastHead: null };
}
