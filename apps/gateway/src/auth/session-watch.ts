import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { defineGauge, KeyInvalidations, RedisRateLimiter, redisKeys } from '@vault/server-kit';
import type { Logger } from 'pino';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { LOGGER } from '../logging/logger.token';
import { AccountRateCounter } from '../security/account-rate-counter';
import { SessionCache } from './session-cache';

/** A remembered session is asked about again after a minute, whatever the watch says. */
const SESSION_MAX_AGE_MS = 60_000;
const SESSION_MAX_ENTRIES = 100_000;
/** The account's hits decided here reach Redis this often. */
const RATE_FLUSH_MS = 100;
/** The last tenth of an account's limit is counted in Redis hit by hit. */
const RATE_HEADROOM = 0.1;

/**
 * Turns the watch on `sess:*` on at boot (when SESSION_CACHE is on) and, at shutdown, sends the
 * hits still waiting and closes it. Without the watch the cache keeps nothing: every request asks
 * Redis, as with SESSION_CACHE=false.
 */
@Injectable()
export class SessionWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private watch?: KeyInvalidations;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly cache: SessionCache,
    private readonly counter: AccountRateCounter,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    gaugeSource = () => ({ watching: this.watching, remembered: this.remembered });
    defineSessionGauges();
    if (!this.config.sessionCache) return;
    const log = this.logger.child({ component: 'session-watch' });
    this.watch = new KeyInvalidations({
      url: this.config.redis.url,
      prefix: sessionKeyPrefix(this.config),
      onInvalidate: (key) => this.cache.invalidate(key),
      onStateChange: (watching, reason) => {
        if (watching) log.info('watching sessions: live ones are remembered');
        else log.warn({ reason }, 'not watching sessions: every request asks Redis');
      },
    });
    this.cache.attach(this.watch);
    await this.watch.start().catch(() => undefined);
  }

  get watching(): boolean {
    return this.watch?.watching ?? false;
  }

  get remembered(): number {
    return this.cache.size;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.counter.close();
    await this.watch?.close();
  }
}

/** The gateway the gauges read (one per process; the last one booted in a test process). */
let gaugeSource: () => { watching: boolean; remembered: number } = () => ({ watching: false, remembered: 0 });

/** Read at scrape time: nothing is counted per request. */
function defineSessionGauges(): void {
  defineGauge(
    'gateway_session_watch_up',
    'Whether Redis reports every change of the session keys to this gateway (1): only then are live sessions remembered',
    [],
    function () {
      this.set(gaugeSource().watching ? 1 : 0);
    },
  );
  defineGauge('gateway_sessions_remembered', 'Live sessions this gateway remembers', [], function () {
    this.set(gaugeSource().remembered);
  });
}

/** The full name of session keys in Redis, up to the session id. */
function sessionKeyPrefix(config: GatewayConfig): string {
  return `${config.redis.prefix}${redisKeys.session('')}`;
}

export function sessionCheckProviders(config: GatewayConfig): Provider[] {
  return [
    {
      provide: SessionCache,
      useFactory: () =>
        new SessionCache({
          keyPrefix: sessionKeyPrefix(config),
          maxAgeMs: SESSION_MAX_AGE_MS,
          maxEntries: SESSION_MAX_ENTRIES,
        }),
    },
    {
      provide: AccountRateCounter,
      inject: [RedisRateLimiter, SessionCache],
      useFactory: (limiter: RedisRateLimiter, cache: SessionCache) =>
        new AccountRateCounter({
          enabled: config.sessionCache,
          send: (key, rule, cost) => limiter.hit(key, rule, cost),
          flushMs: RATE_FLUSH_MS,
          headroom: RATE_HEADROOM,
          // Redis failing: stop vouching for sessions until it answers again.
          onSendFailure: () => cache.invalidate(null),
        }),
    },
    SessionWatch,
  ];
}
