import Redis from 'ioredis';

const CHANNEL = '__redis__:invalidate';

export interface KeyInvalidationsOptions {
  url: string;
  /** The full prefix of the keys watched, the clients' keyPrefix included (e.g. `vault:sess:`). */
  prefix: string;
  /**
   * A key under the prefix was written, deleted or expired (its full name); null: forget
   * everything (a FLUSHDB or FLUSHALL, or the watch was lost and writes may have been missed).
   */
  onInvalidate: (key: string | null) => void;
  /** The watch is up (true) or lost (false, with the reason); not called for close(). */
  onStateChange?: (watching: boolean, reason?: string) => void;
  /** How often the connection is pinged; a ping unanswered for as long ends the watch. */
  heartbeatMs?: number;
}

/**
 * Redis's server-assisted client-side caching in broadcasting mode: `CLIENT TRACKING ON BCAST
 * PREFIX p` makes Redis send the name of every key under `p` that any client writes, deletes or
 * lets expire. One connection of its own both asks for it and receives it (RESP2: REDIRECT to its
 * own id, then SUBSCRIBE to `__redis__:invalidate`).
 *
 * A cache built on it may trust an entry only while `watching` is true: whenever the connection
 * drops, a heartbeat goes unanswered or the setup fails, the watch reports `onInvalidate(null)`
 * and stays off until it is set up again on the next connection (ioredis reconnects by itself).
 * A read that raced a write is the cache's to handle: note `generation` before reading and keep
 * the answer only if it has not moved (every invalidation and every change of state moves it).
 */
export class KeyInvalidations {
  private readonly connection: Redis;
  private watchingNow = false;
  private connectionEpoch = 0;
  private heartbeat?: NodeJS.Timeout;
  private closed = false;
  private settingUp: Promise<void> = Promise.resolve();
  /** Moves on every invalidation and every change of `watching`. */
  generation = 0;
  /** Redis's id of the connection the watch is set up on (CLIENT LIST, CLIENT KILL). */
  connectionId?: number;

  constructor(private readonly options: KeyInvalidationsOptions) {
    this.connection = new Redis(options.url, {
      lazyConnect: true,
      // The setup below must run before SUBSCRIBE on every new connection: no automatic one.
      autoResubscribe: false,
      maxRetriesPerRequest: 1,
    });
    this.connection.on('ready', () => {
      this.settingUp = this.setUp(++this.connectionEpoch);
    });
    this.connection.on('close', () => {
      this.connectionEpoch += 1;
      this.lose('connection closed');
    });
    // ioredis reconnects on its own; the state change above is what matters here.
    this.connection.on('error', () => undefined);
    this.connection.on('messageBuffer', (channel: Buffer, message: unknown) => {
      if (channel.toString() !== CHANNEL || !this.watchingNow) return;
      this.generation += 1;
      if (!Array.isArray(message)) {
        options.onInvalidate(null);
        return;
      }
      for (const key of message) options.onInvalidate(String(key));
    });
  }

  /** True while every write under the prefix reaches onInvalidate. */
  get watching(): boolean {
    return this.watchingNow;
  }

  /** Connects and sets the watch up; resolves once it is up (or rejects when it cannot be). */
  async start(): Promise<void> {
    // connect() resolves after 'ready', whose handler (registered first) has begun the setup.
    await this.connection.connect();
    await this.settingUp;
    if (!this.watchingNow) throw new Error('CLIENT TRACKING could not be turned on');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.lose('closed');
    await this.connection.quit().catch(() => this.connection.disconnect());
  }

  private async setUp(epoch: number): Promise<void> {
    if (this.watchingNow || this.closed) return;
    try {
      const id = await this.connection.client('ID');
      this.connectionId = Number(id);
      await this.connection.call(
        'CLIENT',
        'TRACKING',
        'ON',
        'REDIRECT',
        String(id),
        'BCAST',
        'PREFIX',
        this.options.prefix,
      );
      await this.connection.subscribe(CHANNEL);
    } catch (error) {
      // Not watching yet: say why (a Redis without CLIENT TRACKING, or the connection dropping).
      if (epoch === this.connectionEpoch) this.options.onStateChange?.(false, (error as Error).message);
      return;
    }
    // The connection may have dropped while the commands ran: then the next 'ready' sets it up.
    if (epoch !== this.connectionEpoch || this.closed || this.watchingNow) return;
    this.watchingNow = true;
    this.generation += 1;
    this.options.onStateChange?.(true);
    this.beat();
  }

  private beat(): void {
    const every = this.options.heartbeatMs ?? 5000;
    clearTimeout(this.heartbeat);
    this.heartbeat = setTimeout(() => {
      if (!this.watchingNow) return;
      const epoch = this.connectionEpoch;
      const late = setTimeout(() => {
        if (epoch !== this.connectionEpoch || !this.watchingNow) return;
        this.lose(`no answer to a ping within ${every} ms`);
        // A fresh connection sets the watch up again once Redis answers.
        this.connection.disconnect(true);
      }, every);
      late.unref();
      this.connection.ping().then(
        () => {
          clearTimeout(late);
          if (epoch === this.connectionEpoch && this.watchingNow) this.beat();
        },
        () => clearTimeout(late),
      );
    }, every);
    this.heartbeat.unref();
  }

  private lose(reason: string): void {
    clearTimeout(this.heartbeat);
    if (!this.watchingNow) return;
    this.watchingNow = false;
    this.generation += 1;
    this.options.onInvalidate(null);
    // A close asked for is no loss to report.
    if (!this.closed) this.options.onStateChange?.(false, reason);
  }
}
