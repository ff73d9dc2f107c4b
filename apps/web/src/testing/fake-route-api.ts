import { json } from './fake-server';

/** What every fake API records of a request. */
export interface RoutedRequest {
  method: string;
  path: string;
}

/**
 * `/api/<area>/<uuid>/restore` → `/api/<area>/:id/restore`; the area's fixed names (`counts`,
 * `trash`, ...) stay as they are.
 */
export function routeOf(path: string, area: string, fixedNames: readonly string[]): string {
  const parts = path.split('/');
  if (parts[1] === 'api' && parts[2] === area && parts[3] && !fixedNames.includes(parts[3])) parts[3] = ':id';
  return parts.join('/');
}

/**
 * The scripting every in-memory API of the tests shares: requests are recorded; `fail` answers a
 * route with an error (a number of times); `hold` makes a route wait until `release`; `now` is a
 * clock that moves one second per call. Subclasses name their routes and answer them.
 */
export abstract class FakeRouteApi<R extends RoutedRequest> {
  readonly requests: R[] = [];
  private readonly failures = new Map<string, { status: number; error: string; times: number }>();
  private readonly holds = new Map<string, Array<() => void>>();
  private readonly holding = new Set<string>();
  protected clock = Date.parse('2026-07-01T09:00:00.000Z');

  /** `METHOD /api/area/:id/...` of a request path. */
  protected abstract route(path: string): string;
  protected abstract handle(route: string, req: R): Response | Promise<Response>;

  fail(route: string, status: number, error: string, times = 1): this {
    this.failures.set(route, { status, error, times });
    return this;
  }

  /** The next request to `route` (or `times` of them) answers 503 'Service unavailable'. */
  unavailable(route: string, times = 1): this {
    return this.fail(route, 503, 'Service unavailable', times);
  }

  /** Requests to `route` wait until `release(route)`. */
  hold(route: string): this {
    this.holding.add(route);
    return this;
  }

  release(route: string): void {
    this.holding.delete(route);
    const waiting = this.holds.get(route) ?? [];
    this.holds.delete(route);
    waiting.forEach((go) => go());
  }

  calls(route: string): R[] {
    return this.requests.filter((r) => `${r.method} ${this.route(r.path)}` === route);
  }

  protected now(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }

  /** Records the request, waits while its route is held, answers a scripted failure or handles it. */
  protected async dispatch(req: R): Promise<Response> {
    this.requests.push(req);
    const route = `${req.method} ${this.route(req.path)}`;
    if (this.holding.has(route)) {
      await new Promise<void>((resolve) => {
        const list = this.holds.get(route) ?? [];
        list.push(resolve);
        this.holds.set(route, list);
      });
    }
    const failure = this.failures.get(route);
    if (failure && failure.times > 0) {
      failure.times--;
      return json(failure.status, { error: failure.error });
    }
    return this.handle(route, req);
  }
}
