import { BattlEyeClient, type BattlEyeClientOptions } from '@garrison/battleye';
import { waitFor } from './waiting.js';

/**
 * Logs in to a BattlEye RCon server that may still be starting (a game process boots for a while on a
 * busy machine): tries again until `timeoutMs` (default 30 s) has passed, then fails naming the port.
 */
export function connectRcon(options: BattlEyeClientOptions, timeoutMs = 30_000): Promise<BattlEyeClient> {
  return waitFor(() => BattlEyeClient.connect({ resendMs: 100, loginTimeoutMs: 1000, ...options }), {
    timeoutMs,
    intervalMs: 100,
    what: `a BattlEye RCon login at ${options.host}:${options.port}`,
  });
}
