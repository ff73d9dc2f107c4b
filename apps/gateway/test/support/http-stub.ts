import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The files service's HTTP listener, played by a tiny node:http server on a free port: `handler`
 * answers (the test steers it), `receive` sees each request first (a subclass records it).
 */
export abstract class HttpStub {
  abstract handler: HttpHandler;
  private readonly server: Server = createServer((req, res) => this.receive(req, res));

  protected receive(req: IncomingMessage, res: ServerResponse): void {
    this.handler(req, res);
  }

  /** Listens on a free port; answers the base URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
