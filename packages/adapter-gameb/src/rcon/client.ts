import { ApiError, type RemoteAdminSession, type RemoteAdminTarget } from '@garrison/core';
import { MAX_PACKET_SIZE, PACKET_OVERHEAD } from './codec.js';
import { RconConnection, rconError } from './connection.js';

export interface SourceRconOptions extends RemoteAdminTarget {
  /** A command fails after this long without its whole answer (the connection is then dropped and made anew). */
  timeoutMs?: number;
  /** Connecting and logging in give up after this long. */
  connectTimeoutMs?: number;
  /** Most commands waiting their turn; more are refused rather than piled up behind a server that does not answer. */
  maxQueue?: number;
}

const noop = () => {};

/**
 * A Source RCON session: one TCP connection at a time, commands one after another in the order given
 * (the protocol has one answer stream and no end marker, so two commands must not interleave). When the
 * connection drops or a command times out, the commands under way are rejected with `RCON_ERROR`, and
 * the next command connects and logs in again: a game that restarted is reached without the service
 * having to notice. After close(), every command is rejected.
 */
export class SourceRconClient implements RemoteAdminSession {
  private readonly options: Required<SourceRconOptions>;
  private connection: RconConnection | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private closed = false;

  private constructor(options: SourceRconOptions) {
    this.options = { timeoutMs: 5000, connectTimeoutMs: 3000, maxQueue: 64, ...options };
  }

  /** Connects and logs in; rejects with `RCON_ERROR` on a refused password, a closed port or no answer. */
  static async connect(options: SourceRconOptions): Promise<SourceRconClient> {
    const client = new SourceRconClient(options);
    client.connection = await RconConnection.open(options, client.options.connectTimeoutMs);
    return client;
  }

  /** Runs a command after those before it and resolves with its whole answer, however many packets it took. */
  command(text: string): Promise<string> {
    if (this.closed) return Promise.reject(rconError('the RCON session is closed'));
    const problem = commandTextProblem(text);
    if (problem) return Promise.reject(new ApiError('VALIDATION_ERROR', `field 'command': ${problem}`));
    if (this.waiting >= this.options.maxQueue) return Promise.reject(rconError('too many RCON commands are waiting for their turn'));
    this.waiting += 1;
    const result = this.tail.then(() => this.run(text));
    this.tail = result.then(noop, noop).finally(() => (this.waiting -= 1));
    return result;
  }

  /** Source RCON pushes nothing: the game speaks only when asked. */
  onMessage(_listener: (message: string) => void): () => void {
    return noop;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.connection?.close(rconError('the RCON session was closed'));
  }

  private async run(text: string): Promise<string> {
    if (this.closed) throw rconError('the RCON session was closed');
    if (!this.connection || this.connection.dead) {
      this.connection = await RconConnection.open(this.options, this.options.connectTimeoutMs);
      // Closed while connecting: the new connection goes too.
      if (this.closed) {
        await this.connection.close(rconError('the RCON session was closed'));
        throw rconError('the RCON session was closed');
      }
    }
    return this.connection.exchange(text, this.options.timeoutMs);
  }
}

/** Valve's limit on a packet a client sends (a size of 4096 at most): a server drops a client that sends more. */
const MAX_COMMAND_BYTES = MAX_PACKET_SIZE - 2 * PACKET_OVERHEAD;

/** Why a command cannot go into one packet as it is (too long, a NUL byte that would end it early), or null. */
function commandTextProblem(text: string): string | null {
  if (text.includes('\0')) return 'a command cannot contain a NUL character';
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_COMMAND_BYTES) return `a command has at most ${MAX_COMMAND_BYTES} bytes, not ${bytes}`;
  return null;
}
