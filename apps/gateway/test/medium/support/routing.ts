import { randomUUID } from 'node:crypto';
import type { InjectAnswer, InjectOptions } from './gateway-harness';
import type { RpcStubs } from './rpc-stubs';

type Inject = (opts: InjectOptions, token?: string | null) => Promise<InjectAnswer>;

/** A route by id: method, path with `{id}`, the pattern it reaches, its status, the stub's reply, the body. */
export type ByIdRoute = [
  method: string,
  path: string,
  pattern: string,
  status: number,
  reply: unknown,
  body: RegExp,
];

/** A protected route, as the tests list them. */
export interface ProtectedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: object;
}

/** Checks that the notes and files routes share, against the stub services and the gateway. */
export function routeChecks(stubs: RpcStubs, inject: Inject) {
  return {
    /** The route reaches its pattern with exactly `{ id }` and answers as the service said. */
    async routedById([method, path, pattern, status, reply, body]: ByIdRoute): Promise<void> {
      const id = randomUUID();
      stubs.answer(pattern, reply);
      const res = await inject({ method: method as 'POST', url: path.replace('{id}', id) });

      expect({ status: res.statusCode, body: res.body }).toEqual({
        status,
        body: expect.stringMatching(body),
      });
      expect(stubs.seen.map((s) => [s.pattern, s.request.body])).toEqual([[pattern, { id }]]);
    },

    /** `DELETE <list>/trash` reaches the empty-trash pattern, never a delete of the id "trash". */
    async trashEmptied(url: string, pattern: string): Promise<void> {
      stubs.answer(pattern, { deleted: 3 });
      const res = await inject({ method: 'DELETE', url });

      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ deleted: 3 });
      expect(stubs.seen.map((s) => s.pattern)).toEqual([pattern]);
    },

    /** Without a token: 401 UNAUTHENTICATED, and no service is called. */
    async unauthenticated(route: ProtectedRoute): Promise<void> {
      const payload = route.body ? { payload: route.body } : {};
      const res = await inject({ method: route.method, url: route.url, ...payload }, null);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(stubs.seen).toEqual([]);
    },
  };
}
