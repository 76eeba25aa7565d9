import type { AdapterDefinition, BanFileEntry, BanManager, ServerContext } from '@garrison/core';

/** One ban file of a game, and the identity kinds whose bans it holds. */
export interface BanFile {
  path: string;
  kinds: ReadonlySet<string>;
  /** The adapter's line codec, seeing only bans of this file's kinds: a line of another kind is a foreign line here. */
  codec: Pick<BanManager, 'parseBanLine' | 'formatBanLine'>;
}

/**
 * The game's ban files: one for every identity kind it declares, or one per kind (a game that keeps
 * address bans apart), each named once with the kinds it holds.
 */
export function banFilesOf(adapter: AdapterDefinition, ctx: ServerContext): BanFile[] {
  const manager = adapter.capabilities.ban_manager;
  if (!manager) return [];
  const byPath = new Map<string, Set<string>>();
  for (const { kind } of adapter.identities ?? []) {
    const path = manager.banFilePath(ctx, kind);
    byPath.set(path, (byPath.get(path) ?? new Set()).add(kind));
  }
  return [...byPath].map(([path, kinds]) => ({
    path,
    kinds,
    codec: {
      parseBanLine(line: string, readAt: Date): BanFileEntry | null {
        const entry = manager.parseBanLine(line, readAt);
        return entry && kinds.has(entry.id.kind) ? entry : null;
      },
      formatBanLine: (ban) => manager.formatBanLine(ban),
    },
  }));
}
