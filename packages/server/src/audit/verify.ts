import type { AuditRepository } from '../db/repositories/audit.js';
import { ChainVerifier, type BrokenLink } from './chain.js';

interface Verification {
  /** Entries whose link was checked and held. */
  checked: number;
  /** The first broken link; null when the whole chain holds. */
  broken: BrokenLink | null;
  /** The last pruned entry the chain starts from (0: nothing pruned). */
  anchorId: number;
}

/** Walks the whole trail in id order, from the anchor to the head, and stops at the first broken link. */
export async function verifyChain(audit: AuditRepository): Promise<Verification> {
  const head = await audit.head();
  const verifier = new ChainVerifier(head);
  for await (const entry of audit.stored()) {
    if (!verifier.next(entry)) break;
  }
  return { checked: verifier.checked, broken: verifier.finish(), anchorId: head.anchor_id };
}
