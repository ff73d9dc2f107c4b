import { Injectable } from '@nestjs/common';
import type { HealthReply } from '@vault/contracts';
import { checkHealth } from '@vault/server-kit';
import { ScanLocksRepository } from '../queues/scan-locks.repository';
import { FileScanner } from '../scanners/file-scanner.service';

/** Readiness: Redis (the queue) and clamd answer. */
@Injectable()
export class HealthService {
  constructor(
    private readonly locks: ScanLocksRepository,
    private readonly scanner: FileScanner,
  ) {}

  check(): Promise<HealthReply> {
    return checkHealth('scan-worker', {
      redis: () => this.locks.ping(),
      clamd: () => this.scanner.ping(),
    });
  }
}
