import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { Clock } from '../jobs/clock.js';

/** A client whose unsent messages pass this is not keeping up: what follows is dropped, and counted. */
const SEND_BUFFER_LIMIT = 1024 * 1024;
/** Held back per client within one turn, at most (see holdUntilTurnEnds). */
const CORK_FLUSH_BYTES = 64 * 1024;
/** A client over the limit for this long has stopped reading: it is disconnected. */
const STUCK_MS = 30_000;

/** What the send queue keeps of each client beside its socket. */
export interface QueuedClient {
  socket: WebSocket;
  dropped: number;
  /** Since when its send buffer has been over the limit, or 0. */
  overSince: number;
  /** Its TCP socket holds back what is sent until the current turn of the event loop ends. */
  corked: boolean;
}

/**
 * What the hub sends each client goes through here, so that a slow client never slows the others: past
 * SEND_BUFFER_LIMIT its messages are dropped (and counted), past STUCK_MS over it the client is cut off,
 * and what one turn of the event loop sends leaves in one write.
 */
export class SendQueue {
  /** Messages not sent to clients that were not keeping up. */
  droppedTotal = 0;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** A text frame; `text` as a string, or already encoded (UTF-8). */
  sendText(client: QueuedClient, text: string | Buffer): void {
    const { socket } = client;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > SEND_BUFFER_LIMIT) {
      client.overSince ||= this.clock.now();
      if (this.clock.now() - client.overSince > STUCK_MS) {
        this.logger.warn({ dropped: client.dropped }, 'WebSocket client stopped reading; disconnected');
        socket.terminate();
        return;
      }
      if (client.dropped++ === 0) this.logger.warn('WebSocket client not keeping up; dropping its messages');
      this.droppedTotal += 1;
      return;
    }
    client.overSince = 0;
    this.holdUntilTurnEnds(client);
    socket.send(text, { binary: false });
    if ((tcpOf(client)?.writableLength ?? 0) >= CORK_FLUSH_BYTES) this.letGo(client);
  }

  /**
   * The events published together (the lines of one read of a game's log, say) leave in one write
   * per client rather than one each: a service that falls behind, as right after a start while its
   * code is not yet compiled, catches up instead of writing its way further behind. At most
   * CORK_FLUSH_BYTES are held, so that the send-buffer limit above still sees a client that does
   * not read. (`_socket` is ws's TCP socket; ws corks it for each frame itself, and corks nest.)
   */
  private holdUntilTurnEnds(client: QueuedClient): void {
    const tcp = tcpOf(client);
    if (client.corked || !tcp) return;
    client.corked = true;
    tcp.cork();
    queueMicrotask(() => this.letGo(client));
  }

  private letGo(client: QueuedClient): void {
    const tcp = tcpOf(client);
    if (!client.corked || !tcp) return;
    client.corked = false;
    if (!tcp.destroyed) tcp.uncork();
  }
}

type TcpSocket = { cork(): void; uncork(): void; destroyed: boolean; writableLength: number };
const tcpOf = (client: QueuedClient) => (client.socket as unknown as { _socket?: TcpSocket })._socket;
