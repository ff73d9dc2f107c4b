import { Body, Controller, Param, Query } from '@nestjs/common';
import {
  ErrorCode as E,
  serverTestRunSchema,
  testRunIdParamSchema,
  testRunnerStatusSchema,
  testRunOutputQuerySchema,
  testRunOutputSchema,
  testRunStartBodySchema,
  type RpcContext,
  type RpcReply,
  type TestRunIdParam,
  type TestRunOutputQuery,
  type TestRunStartBody,
} from '@vault/contracts';
import { AdminOnly } from '../../auth/admin.decorators';
import { Route } from '../../openapi/api-doc';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';
import { ADMIN_ERRORS } from './admin-docs';

/**
 * /api/admin/test-runner: the server test runner (issue 15, docs/api.md "Admin"). Off unless the
 * admin service's TEST_RUNNER_ENABLED is true; the client names a suite of the fixed list, never a
 * command. Reading needs `system:read`, starting and stopping `tests:run` (both audited).
 */
@Controller('admin/test-runner')
export class AdminTestRunnerController {
  constructor(private readonly rpc: RpcClient) {}

  @AdminOnly('system:read')
  @Route('get', undefined, {
    summary:
      'Whether the server test runner is on (and if not, why and how to turn it on), its fixed ' +
      'suites, the run going on and the last one',
    success: [{ description: 'Test runner status', schema: testRunnerStatusSchema }],
    errors: ADMIN_ERRORS,
  })
  adminTestRunnerStatus(@Ctx() ctx: RpcContext): Promise<RpcReply<'admin.test-runner.status'>> {
    return this.rpc.call('admin.test-runner.status', ctx, undefined);
  }

  @AdminOnly('tests:run')
  @Route('post', 'runs', {
    status: 202,
    summary:
      'Start a suite of the fixed list (audited): one run at a time across the service, its output ' +
      'read with the output call',
    success: [{ description: 'The run, started', schema: serverTestRunSchema }],
    errors: [...ADMIN_ERRORS, E.TEST_RUNNER_UNAVAILABLE, E.CONFLICT],
  })
  adminTestRunStart(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(testRunStartBodySchema)) body: TestRunStartBody,
  ): Promise<RpcReply<'admin.test-runner.start'>> {
    return this.rpc.call('admin.test-runner.start', ctx, body);
  }

  @AdminOnly('system:read')
  @Route('get', 'runs/:runId', {
    summary: "A run and its output lines from `from`; the answer's `next` is the next call's `from`",
    success: [{ description: 'The run and a page of its output', schema: testRunOutputSchema }],
    errors: [...ADMIN_ERRORS, E.NOT_FOUND],
  })
  adminTestRunOutput(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(testRunIdParamSchema)) params: TestRunIdParam,
    @Query(zodPipe(testRunOutputQuerySchema)) query: TestRunOutputQuery,
  ): Promise<RpcReply<'admin.test-runner.output'>> {
    return this.rpc.call('admin.test-runner.output', ctx, { ...params, ...query });
  }

  @AdminOnly('tests:run')
  @Route('post', 'runs/:runId/stop', {
    status: 200,
    summary:
      'Stop a run (audited): its process group gets SIGTERM, then SIGKILL after 5 s; answers the run, ' +
      '`cancelled` once it ended',
    success: [{ description: 'The run', schema: serverTestRunSchema }],
    errors: [...ADMIN_ERRORS, E.NOT_FOUND],
  })
  adminTestRunStop(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(testRunIdParamSchema)) params: TestRunIdParam,
  ): Promise<RpcReply<'admin.test-runner.stop'>> {
    return this.rpc.call('admin.test-runner.stop', ctx, params);
  }
}
