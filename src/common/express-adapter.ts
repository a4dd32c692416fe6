// NestJS's Express adapter, with one change: the server's requests and responses are born with the
// Express application's prototypes (app.request, app.response).
//
// Why: Express moves every request and response onto those prototypes (Object.setPrototypeOf in
// app.handle). On Node 20, V8 then gives each of these objects maps of its own. Every property that
// Express, Nest, passport or the service adds afterwards makes yet another map, and every property
// access in those libraries becomes megamorphic. When the object already has the prototype, that call
// changes nothing, and all requests share their maps. Customers bench: the service's CPU per GET went
// from about 0.95 to 0.63 ms.
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer as createHttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

export class AppExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.forceCloseConnections || options.return503OnClosing) {
      throw new Error('AppExpressAdapter does not implement forceCloseConnections or return503OnClosing');
    }
    const app = this.getInstance<Express>();
    const classes = withAppPrototypes(app);
    this.setHttpServer(options.httpsOptions ? createHttpsServer({ ...options.httpsOptions, ...classes }, app) : createHttpServer(classes, app));
  }
}

/** Request and response constructors whose instances have the app's prototypes from the start. */
export function withAppPrototypes(app: Pick<Express, 'request' | 'response'>) {
  // Node's own constructors (plain functions in Node 20) run on the new object. Not Reflect.construct
  // with new.target: V8 then makes a map per object again.
  const incomingMessage = IncomingMessage as unknown as (this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) => void;
  const serverResponse = ServerResponse as unknown as (this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) => void;
  function AppRequest(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    incomingMessage.apply(this, args);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    serverResponse.apply(this, args);
  }
  AppResponse.prototype = app.response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}
