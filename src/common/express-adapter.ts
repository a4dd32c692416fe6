// NestJS's Express adapter, with two changes: the server's requests and responses are born on the
// Express application's prototypes (app.request, app.response), and closing it does not wait for the
// keep-alive time of connections that were answering when the close began (close() below).
//
// Why: Express moves every request and response onto those prototypes (Object.setPrototypeOf in
// app.handle). On Node 20, V8 then gives each of these objects maps of its own. Every property that
// Express, Nest, passport or the service adds afterwards makes yet another map, and every property
// access in those libraries becomes megamorphic. When the object already has the prototype, that call
// changes nothing, and all requests share their maps. Customers bench, paired A/B rounds: the service's
// CPU per GET went from 0.95 to 0.64 ms.
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer as createHttpServer, IncomingMessage, type Server as HttpServer, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

export class AppExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.forceCloseConnections || options.return503OnClosing) {
      throw new Error('AppExpressAdapter does not implement forceCloseConnections or return503OnClosing');
    }
    const app = this.getInstance<Express>();
    const classes = appClasses(app);
    this.setHttpServer(
      options.httpsOptions ? createHttpsServer({ ...options.httpsOptions, ...classes }, app) : createHttpServer(classes, app),
    );
  }

  /**
   * Closes the server as Nest does (no new connections; idle ones closed at once) and then every other
   * connection as soon as its answer is out. Node leaves a connection that was answering when the close
   * began open until its keep-alive time runs out (HTTP_KEEP_ALIVE_SECONDS, 65 s: longer than the proxy's),
   * and the shutdown would wait that long for it.
   */
  override close(): Promise<unknown> | undefined {
    const server = this.getHttpServer() as HttpServer | undefined;
    const closed = super.close();
    if (!server || !closed) return closed;
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    return closed.finally(() => clearInterval(sweep));
  }
}

/**
 * Request and response classes whose prototypes become the app's: each sits in front of the app's
 * original prototype (Express's methods stay where they were), and the app hands it to every request.
 * Subclasses, not functions with a borrowed prototype: V8 sizes their objects for Node's fields, so
 * requests stay in fast mode.
 */
export function appClasses(app: Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  class AppRequest extends IncomingMessage {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  app.request = AppRequest.prototype as unknown as Express['request'];
  class AppResponse extends ServerResponse {}
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  app.response = AppResponse.prototype as unknown as Express['response'];
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse as typeof ServerResponse };
}
