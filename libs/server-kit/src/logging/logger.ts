import type { LoggerService } from '@nestjs/common';
import pino, { type Logger, type LoggerOptions } from 'pino';

/**
 * Structured logs (pino). Request and response bodies are never logged: the redaction
 * list below is a second net for headers and fields that carry secrets.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.authKey',
  '*.currentAuthKey',
  '*.password',
  '*.refreshToken',
  '*.token',
  '*.access',
  '*.body',
];

export interface LoggerConfig {
  service: string;
  level: string;
  pretty?: boolean;
}

export function createLogger(cfg: LoggerConfig): Logger {
  const options: LoggerOptions = {
    level: cfg.level,
    base: { service: cfg.service },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  if (cfg.pretty) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } },
    });
  }
  return pino(options);
}

/**
 * Nest's start-up chatter (a line per module and per mapped route, ~90 lines for the gateway):
 * debug, not info, so a start shows the services' own lines. `LOG_LEVEL=debug` brings it back.
 */
const FRAMEWORK_CHATTER = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
  'NestMicroservice',
]);

/** Nest's logger interface on top of pino, so framework messages are structured too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    if (context !== undefined && FRAMEWORK_CHATTER.has(context))
      this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
