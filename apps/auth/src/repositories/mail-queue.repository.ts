import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { RECOVERY_CODE_MAIL_JOB, type RecoveryCodeMailJob } from '@vault/contracts';
import { JOB_QUEUES, JobQueues, runJob } from '@vault/server-kit';
import type { AuthConfig } from '../config/auth.config';
import { AUTH_CONFIG } from './connections';

/**
 * The `mail` queue (server-kit JOB_QUEUES.mail). The auth process both produces (email-code) and
 * consumes (a worker that hands each job to the mail sender), so a slow or failing SMTP server
 * never delays the HTTP answer, and a failed send is retried with backoff. Finished jobs are
 * removed at once: a job's payload is an address and a sealed code, nothing to keep.
 */
@Injectable()
export class MailQueueRepository implements OnApplicationShutdown {
  private readonly logger = new Logger(MailQueueRepository.name);
  private readonly jobs: JobQueues;
  private consuming = false;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    this.jobs = JobQueues.connect(config.redis);
  }

  async queueRecoveryCode(job: RecoveryCodeMailJob): Promise<void> {
    await this.jobs.queue(JOB_QUEUES.mail).add(RECOVERY_CODE_MAIL_JOB, job);
  }

  /** Starts the consumer; a malformed job fails for good instead of being retried. */
  async consume(send: (job: RecoveryCodeMailJob) => Promise<void>): Promise<void> {
    if (this.consuming) return;
    this.consuming = true;
    await this.jobs
      .worker(JOB_QUEUES.mail, { [RECOVERY_CODE_MAIL_JOB]: runJob(send) }, { logger: this.logger })
      .start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.jobs.close();
  }
}
