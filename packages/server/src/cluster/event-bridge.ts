import { inject, injectable } from 'tsyringe';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { EventCatalogue, type GarrisonEvent, expectOnly } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { ClusterSettings } from './settings.js';
import type { Logger } from 'pino';
import type { InProcessEventBus, Interest } from '../events/bus.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { isCluster } from './mode.js';

const PREFIX = 'garrison.ev';
/** Game log lines: many; carried to an instance only while a client there follows that server's log. */
const LOG = 'log';
/** The catalogue's other channels, which every instance takes in whole: few events, and every console shows them. */
const ALWAYS = [...new Set(Object.values(EventCatalogue).map((e) => e.channel))].filter((c) => c !== LOG);

/** `garrison.ev.<server>.<channel>`: one subject per server and channel, so NATS routes by interest. */
const subjectOf = (event: GarrisonEvent) => `${PREFIX}.${event.server_id}.${EventCatalogue[event.type].channel}`;

/**
 * The event bus across a cluster, over NATS: this instance's own events go out, the others' come in
 * and are re-emitted here for the WebSocket clients (never for the side effects, which belong to where
 * the event happened). Its own echoes are not sent back (`noEcho`) and are dropped if they were. With
 * NATS down the instance goes on serving its own servers and clients, reconnects by itself, and says
 * so; what was missed meanwhile is not made up.
 */
@injectable()
export class ClusterEvents implements Lifecycle {
  private connection: NatsConnection | null = null;
  private connected = false;
  private stopping = false;
  private unsubscribe: (() => void) | null = null;
  private unwatch: (() => void) | null = null;
  /** The log subscriptions held now: by server, or '*' for all. */
  private readonly logSubscriptions = new Map<string, Subscription>();

  constructor(
    @inject(TOKENS.Settings) private readonly settings: ClusterSettings,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(TOKENS.Events) private readonly events: InProcessEventBus,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /** Null for a single instance; else whether the bus is reachable now. */
  state(): boolean | null {
    return isCluster(this.settings) ? this.connected : null;
  }

  start(): void {
    if (!isCluster(this.settings)) return;
    this.unsubscribe = this.events.subscribe((event) => this.send(event));
    // Not awaited: an instance starts and serves its own servers while NATS is still out of reach.
    void this.connectUntilUp();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.unwatch?.();
    await this.connection?.close().catch((err: unknown) => this.logger.warn({ err }, 'the NATS connection did not close cleanly'));
  }

  private async connectUntilUp(): Promise<void> {
    const servers = this.settings.natsUrl!.split(',');
    try {
      const nc = await connect({
        servers,
        name: `garrison ${this.nodeId}`,
        noEcho: true,
        waitOnFirstConnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1000,
        pingInterval: 10_000,
      });
      if (this.stopping) return void (await nc.close());
      this.attach(nc);
    } catch (err) {
      this.logger.error({ err: (err as Error).message }, 'could not connect to NATS; events of other instances are not shown here');
    }
  }

  private attach(nc: NatsConnection): void {
    this.connection = nc;
    this.connected = true;
    this.logger.info({ nats: nc.getServer() }, 'connected to NATS: events are shared with the other instances');
    for (const channel of ALWAYS) nc.subscribe(`${PREFIX}.*.${channel}`, { callback: (err, msg) => void (err || this.receive(msg.data)) });
    this.followLogInterest();
    this.unwatch = this.events.onInterest((channel) => channel === LOG && this.followLogInterest());
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect') {
          this.connected = false;
          this.logger.warn(
            { nats: status.server },
            "lost the connection to NATS: serving this instance's own servers and clients, reconnecting",
          );
        } else if (status.type === 'reconnect') {
          this.connected = true;
          this.logger.info({ nats: status.server }, 'reconnected to NATS');
        }
      }
    })();
    void nc.closed().then(() => {
      this.connected = false;
    });
  }

  private send(event: GarrisonEvent): void {
    const nc = this.connection;
    if (!nc || nc.isClosed()) return;
    try {
      nc.publish(subjectOf(event), JSON.stringify(event));
    } catch (err) {
      this.logger.debug({ err: (err as Error).message }, 'event not sent to NATS');
    }
  }

  private receive(data: Uint8Array): void {
    let event: GarrisonEvent;
    try {
      event = JSON.parse(Buffer.from(data).toString('utf8')) as GarrisonEvent;
    } catch (err) {
      expectOnly(err, SyntaxError);
      return; // not an event of Garrison's
    }
    if (!event || typeof event !== 'object' || event.origin === this.nodeId || !(event.type in EventCatalogue)) return;
    this.events.deliverRemote(event);
  }

  /** Holds exactly the log subscriptions the clients here want: one per server followed, or one for all. */
  private followLogInterest(): void {
    const nc = this.connection;
    if (!nc || nc.isClosed()) return;
    const interest: Interest = this.events.interestIn(LOG);
    const wanted = new Set(interest.all ? ['*'] : [...interest.servers].map(String));
    for (const [key, sub] of this.logSubscriptions) {
      if (wanted.has(key)) continue;
      sub.unsubscribe();
      this.logSubscriptions.delete(key);
    }
    for (const key of wanted) {
      if (this.logSubscriptions.has(key)) continue;
      this.logSubscriptions.set(
        key,
        nc.subscribe(`${PREFIX}.${key}.${LOG}`, { callback: (err, msg) => void (err || this.receive(msg.data)) }),
      );
    }
  }
}
