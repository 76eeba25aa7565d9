export * from './protocol.js';
export { PartCollector, RecentSequences } from './reassembly.js';
export { BattlEyeClient, type BattlEyeClientOptions } from './client.js';
