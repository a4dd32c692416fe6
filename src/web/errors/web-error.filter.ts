// The service's exception filter, aware of the web app: a browser asking for a page gets an HTML page
// (404 with the layout of a signed-in user when the session has one; a failure of the service: 500
// with the request id it was logged under, never a stack trace). Everyone else — API paths, clients
// that send Authorization or prefer JSON — gets the problem document exactly as ProblemFilter sends it.
import { type ArgumentsHost, Catch, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Problem, sendProblem } from '../../common/problem.js';
import { ProblemFilter } from '../../http/problem.filter.js';
import { requestIdOf } from '../../logging/logger.js';
import { MessagePage } from '../views/simple-pages.js';
import { WebPages } from '../web-pages.js';
import { readCookies } from '../web-security.js';
import { WEB_PATHS } from '../web.setup.js';
import { wantsPage } from './browser-requests.js';
import { ErrorPage, type ErrorKind } from './error-page.js';

const kindOf = (status: number): ErrorKind =>
  status === 503 ? 'unavailable' : status === 429 ? 'tooMany' : status >= 500 ? 'internal' : 'refused';

@Catch()
export class WebErrorFilter extends ProblemFilter {
  private readonly pageLogger = new Logger('WebError');

  constructor(private readonly pages: WebPages) {
    super();
  }

  override catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return super.catch(error, host);
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (!wantsPage(req, WEB_PATHS)) return super.catch(error, host);
    // Logged (an unexpected error with its stack, under the request id) exactly as for the API.
    const problem = this.problemFor(error, res);
    if (res.headersSent) return;
    this.sendPage(req, res, problem).catch((failure: unknown) => {
      this.pageLogger.error({ err: failure }, 'the error page failed: answered with the problem document');
      if (!res.headersSent) sendProblem(res, problem, requestIdOf(req));
    });
  }

  private async sendPage(req: Request, res: Response, problem: Problem): Promise<void> {
    // A request that passed no web middleware (an error before it) still needs the cookies for the CSRF token.
    if (!(req as { cookies?: unknown }).cookies) readCookies(req, res, () => undefined);
    // The database may be the very failure: then the page shows no user rather than failing too.
    const user = await this.pages.user(req).catch(() => undefined);
    // A visitor's session keeps the CSRF binding of the page's language switch (as on the sign-in page).
    if (!user && req.session) req.session.visitor = true;
    const page = this.pages.context(req, res, user);
    const { status } = problem;
    const view =
      status === 404
        ? MessagePage({ page, kind: 'notFound' })
        : ErrorPage({ page, kind: kindOf(status), requestId: status >= 500 ? requestIdOf(req) : undefined });
    await this.pages.send(res, status, view);
  }
}
