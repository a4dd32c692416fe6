// /push/dead-letters: the dead-letter queue; replay one or the selected documents and discard one with
// a reason, through the service of POST /v2/dead_letters/<id>/replay and DELETE /v2/dead_letters/<id>.
// The web user is the credential the audit log names.
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { AppError } from '../../common/errors.js';
import { parsePublicId } from '../../common/ids.js';
import { pageMeta, type PageRequest } from '../../common/pagination.js';
import { PushDocumentsService } from '../../push/intake/push-documents.service.js';
import { badFilterNotices, credentialOfUser, ExceptionPages, formList, type Notice, pageOf } from '../exceptions/exception-pages.js';
import type { PageContext } from '../views/layout.js';
import { companyOf } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { DeadLettersPage, type DiscardState } from './views/dead-letters-page.js';

type Form = Record<string, unknown> | undefined;
const PATH = '/push/dead-letters';
/** Where a form may lead back to: the queue, or the page of one document. */
const BACK = /^\/push\/(dead-letters|documents\/doc-[0-9a-f-]{36})$/;
const backOf = (body: Form) => (typeof body?.back === 'string' && BACK.test(body.back) ? body.back : PATH);

@Public()
@ApiExcludeController()
@Controller('push/dead-letters')
export class DeadLettersPagesController {
  constructor(
    private readonly frame: ExceptionPages,
    private readonly documents: PushDocumentsService,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const bad: string[] = [];
      const request = pageOf(query, bad);
      const notices = [...this.frame.takeNotices(req), ...badFilterNotices(bad, 'push.badFilter')];
      return this.page(user, page, request, notices, undefined, bad.length ? 400 : 200);
    });
  }

  @Post('replay')
  @HttpCode(200)
  async replay(@Body() body: Form, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const ids = formList(body, 'document');
      if (ids.length === 0) return this.page(user, page, pageOf({}, []), [this.error('push.deadLetters.nothingSelected')], undefined, 422);
      if (ids.some((id) => typeof id !== 'string' || !parsePublicId('doc', id)))
        return this.page(user, page, pageOf({}, []), [this.error('push.deadLetters.badSelection')], undefined, 400);
      const company = companyOf(user);
      let replayed = 0;
      let missing = 0;
      for (const id of ids as string[]) {
        try {
          await this.documents.replay(company, id, credentialOfUser(user, req));
          replayed++;
        } catch (error) {
          // One that is not (or no longer) a dead letter of this company: the 404 page when it was the only one.
          if (!(error instanceof AppError) || error.status !== 404 || ids.length === 1) throw error;
          missing++;
        }
      }
      const notices: Notice[] = [
        ...(replayed ? [{ key: 'push.deadLetters.replayed', values: { count: replayed } }] : []),
        ...(missing ? [{ key: 'push.deadLetters.notFound', values: { count: missing }, error: true }] : []),
      ];
      return this.frame.redirect(req, res, backOf(body), notices);
    });
  }

  @Post(':id/discard')
  @HttpCode(200)
  async discard(@Param('id') id: string, @Body() body: Form, @Req() req: Request, @Res() res: Response) {
    await this.frame.run(req, res, async (user, page) => {
      const company = companyOf(user);
      const document = await this.documents.get(company, id);
      const reason = typeof body?.reason === 'string' ? body.reason.trim() : '';
      if (!reason || reason.length > 2000) {
        const discard = { id, reason: typeof body?.reason === 'string' ? body.reason : '' };
        return this.page(user, page, pageOf({}, []), [this.error('push.deadLetters.reasonRequired')], discard, 422);
      }
      await this.documents.discard(company, id, reason, credentialOfUser(user, req));
      const back = backOf(body);
      return this.frame.redirect(req, res, back, [{ key: 'push.deadLetters.discarded', values: { externalId: document.externalId } }]);
    });
  }

  private async page(
    user: SignedInUser,
    page: PageContext,
    request: PageRequest,
    notices: Notice[],
    discard: DiscardState | undefined,
    status: number,
  ) {
    const { documents, total } = await this.documents.list(companyOf(user), { status: 'dead_lettered' }, request);
    return { status, html: DeadLettersPage({ page, props: { documents, meta: pageMeta(request, total), notices, discard } }) };
  }

  private error(key: string): Notice {
    return { key, error: true };
  }
}
