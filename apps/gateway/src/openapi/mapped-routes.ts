import { RequestMethod, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { z } from 'zod';
import { ADMIN_REQUIREMENT, type AdminRequirement } from '../auth/admin.decorators';
import { AUTH_MODE, type AuthMode } from '../auth/auth.decorators';
import { API_PREFIX } from '../routes/controllers';
import { RATE_LIMIT_BUCKET, type RateLimitBucket } from '../security/rate-limit.decorator';
import { ZodPipe } from '../validation/zod.pipe';
import { API_DOC, type ApiDoc } from './api-doc';

export type HttpMethod = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete';

/** One route as Nest maps it, read from the controller's decorators (nothing booted). */
export interface MappedRoute {
  /** The handler's name, the operation's id. */
  operationId: string;
  method: HttpMethod;
  /** Full path as clients call it, OpenAPI style (`{id}`). */
  path: string;
  /** The first segment under /api: auth, notes, files, health. */
  tag: string;
  auth: AuthMode;
  /** What an admin route (`auth: 'admin'`) needs: any admin, a super admin, or a permission. */
  adminRequirement: AdminRequirement | undefined;
  rateLimit: RateLimitBucket;
  /** The status of a success when the route does not set one itself. */
  status: number;
  doc: ApiDoc | undefined;
  /**
   * Per argument kind: undefined when the handler takes none, `null` when it takes one without a
   * `zodPipe` (nothing to document it from), else the pipe's schema.
   */
  args: Partial<Record<'body' | 'params' | 'query', z.ZodType | null>>;
}

interface RouteArg {
  pipes?: unknown[];
}

const ARG_KINDS = {
  [RouteParamtypes.BODY]: 'body',
  [RouteParamtypes.PARAM]: 'params',
  [RouteParamtypes.QUERY]: 'query',
} as const;

function validatedArgs(controller: Type, handler: string): MappedRoute['args'] {
  const metadata = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<
    string,
    RouteArg
  >;
  const args: MappedRoute['args'] = {};
  for (const [key, arg] of Object.entries(metadata)) {
    // Keys are `<RouteParamtypes>:<index>`; custom decorators (@Ctx) carry a name instead.
    const kind = ARG_KINDS[Number(key.split(':')[0]) as keyof typeof ARG_KINDS];
    if (!kind) continue;
    const pipe = (arg.pipes ?? []).find((p): p is ZodPipe<z.ZodType> => p instanceof ZodPipe);
    args[kind] = pipe?.schema ?? null;
  }
  return args;
}

function fullPath(base: string, path: string, doc: ApiDoc | undefined): string {
  // A trailing wildcard is named after the documented path parameter (the blob route's objectKey).
  const wildcard = doc?.params instanceof z.ZodObject ? Object.keys(doc.params.shape)[0] : 'path';
  return [`/${API_PREFIX}`, base, path]
    .filter((s) => s && s !== '/')
    .join('/')
    .replace(/\/+/g, '/')
    .replace(/:([A-Za-z]+)/g, '{$1}')
    .replace(/\/\*$/, `/{${wildcard}}`);
}

/** The guards' own lookup (handler, then controller), so the document says what they enforce. */
const reflector = new Reflector();

/** The routes of these controllers, in the order Nest registers them. */
export function mappedRoutes(controllers: Type[]): MappedRoute[] {
  const out: MappedRoute[] = [];
  for (const controller of controllers) {
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      const verb = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (path === undefined || verb === undefined) continue;
      const doc = Reflect.getMetadata(API_DOC, handler) as ApiDoc | undefined;
      out.push({
        operationId: name,
        method: RequestMethod[verb].toLowerCase() as HttpMethod,
        path: fullPath(base, path, doc),
        tag: base.split('/')[0] ?? base,
        auth:
          reflector.getAllAndOverride<AuthMode | undefined>(AUTH_MODE, [handler, controller]) ?? 'required',
        adminRequirement: reflector.getAllAndOverride<AdminRequirement | undefined>(ADMIN_REQUIREMENT, [
          handler,
          controller,
        ]),
        rateLimit:
          reflector.getAllAndOverride<RateLimitBucket | undefined>(RATE_LIMIT_BUCKET, [
            handler,
            controller,
          ]) ?? 'api',
        status:
          (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ??
          (verb === RequestMethod.POST ? 201 : 200),
        doc,
        args: validatedArgs(controller, name),
      });
    }
  }
  return out;
}
