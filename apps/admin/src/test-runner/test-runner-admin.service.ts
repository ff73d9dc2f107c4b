import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  SERVER_TEST_SUITES,
  VaultError,
  type RpcReply,
  type ServerTestSuiteId,
} from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import type { AdminConfig } from '../config/admin.config';
import type { AdminCaller } from '../handlers/admin-caller';
import { ADMIN_CONFIG } from '../repositories/connections';
import { AdminActions } from '../services/admin-actions';
import { testRunnerAvailability } from './suite-commands';
import { TestRunnerService } from './test-runner.service';

/** The console's calls on the server test runner: the status, and starts and stops audited first. */
@Injectable()
export class TestRunnerAdminService {
  constructor(
    @Inject(ADMIN_CONFIG) private readonly config: AdminConfig,
    private readonly runner: TestRunnerService,
    private readonly actions: AdminActions,
  ) {}

  async status(): Promise<RpcReply<'admin.test-runner.status'>> {
    const [current, last] = await Promise.all([this.runner.current(), this.runner.last()]);
    return {
      ...testRunnerAvailability(this.config.testRunner),
      suites: SERVER_TEST_SUITES.map(({ id, name, description, estimatedSeconds }) => ({
        id,
        name,
        description,
        estimatedSeconds,
      })),
      current,
      last,
    };
  }

  /** Refused (not audited: nothing can run) while off or without sources; 409 while a run goes on. */
  start(caller: AdminCaller, suite: ServerTestSuiteId): Promise<RpcReply<'admin.test-runner.start'>> {
    const { available, reason } = testRunnerAvailability(this.config.testRunner);
    if (!available) throw new VaultError(ErrorCode.TEST_RUNNER_UNAVAILABLE, reason ?? undefined);
    const runId = randomUUID();
    return this.actions.run(
      caller,
      { action: 'test-run.start', targetType: 'test-run', targetId: runId, details: { suite } },
      () => this.runner.start(runId, suite, caller.admin.label || caller.admin.id),
    );
  }

  async output(runId: string, from: number): Promise<RpcReply<'admin.test-runner.output'>> {
    const { run, lines } = await this.runner.output(runId, from);
    return { run, from, lines, next: from + lines.length };
  }

  stop(caller: AdminCaller, runId: string): Promise<RpcReply<'admin.test-runner.stop'>> {
    return this.actions.run(
      caller,
      { action: 'test-run.stop', targetType: 'test-run', targetId: runId },
      () => this.runner.stop(runId),
    );
  }
}
