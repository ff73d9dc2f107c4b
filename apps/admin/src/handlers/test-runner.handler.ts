import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ADMIN_PATTERNS as P, type RpcReply } from '@vault/contracts';
import { CallerService, readRpcBody } from '@vault/server-kit';
import { TestRunnerAdminService } from '../test-runner/test-runner-admin.service';
import { adminCaller } from './admin-caller';

/** The server test runner (issue 15): reading needs `system:read`, starting and stopping `tests:run`. */
@Controller()
export class TestRunnerHandler {
  constructor(
    private readonly caller: CallerService,
    private readonly testRunner: TestRunnerAdminService,
  ) {}

  @MessagePattern(P.testRunnerStatus)
  async status(@Payload() payload: unknown): Promise<RpcReply<'admin.test-runner.status'>> {
    await this.caller.admin(payload, 'system:read');
    return this.testRunner.status();
  }

  @MessagePattern(P.testRunStart)
  async start(@Payload() payload: unknown): Promise<RpcReply<'admin.test-runner.start'>> {
    const caller = await adminCaller(this.caller, payload, 'tests:run');
    return this.testRunner.start(caller, readRpcBody(P.testRunStart, payload).suite);
  }

  @MessagePattern(P.testRunOutput)
  async output(@Payload() payload: unknown): Promise<RpcReply<'admin.test-runner.output'>> {
    await this.caller.admin(payload, 'system:read');
    const { runId, from } = readRpcBody(P.testRunOutput, payload);
    return this.testRunner.output(runId, from);
  }

  @MessagePattern(P.testRunStop)
  async stop(@Payload() payload: unknown): Promise<RpcReply<'admin.test-runner.stop'>> {
    const caller = await adminCaller(this.caller, payload, 'tests:run');
    return this.testRunner.stop(caller, readRpcBody(P.testRunStop, payload).runId);
  }
}
