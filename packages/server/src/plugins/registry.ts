import { ApiError, CAPABILITIES, type AdapterDefinition, type Capability, type CapabilityMap } from '@garrison/core';

/** The loaded adapters by game type, and the one guard that turns a missing capability into `NOT_SUPPORTED`. */
export class AdapterRegistry {
  private readonly byType: Map<string, AdapterDefinition>;

  constructor(adapters: AdapterDefinition[]) {
    this.byType = new Map(adapters.map((a) => [a.identity.game_type, a]));
  }

  list(): AdapterDefinition[] {
    return [...this.byType.values()];
  }

  /** The adapter of a game type; `status` is 404 for a lookup and 400 when a request body named it. */
  get(gameType: string, status: 400 | 404 = 404): AdapterDefinition {
    const adapter = this.byType.get(gameType);
    if (!adapter) throw new ApiError('GAME_TYPE_NOT_FOUND', `no adapter for game type ${JSON.stringify(gameType)}`, { status });
    return adapter;
  }

  capabilitiesOf(adapter: AdapterDefinition): Capability[] {
    return CAPABILITIES.filter((c) => adapter.capabilities[c] !== undefined);
  }

  require<C extends Capability>(adapter: AdapterDefinition, capability: C): CapabilityMap[C] {
    const impl = adapter.capabilities[capability];
    if (!impl) {
      throw new ApiError('NOT_SUPPORTED', `game type ${adapter.identity.game_type} does not support ${capability}`);
    }
    return impl;
  }
}
