// The invoice page (the API's service_url) and its documents: the invoice PDF, the attachment, the letters
// of invoice and reminders and the statement of claim, served through the same services as the API's
// downloads, for the user's company only.
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { Public } from '../../auth/auth.decorators.js';
import { setStoredDocumentHeaders, wantsInline } from '../../common/stored-document.js';
import { WebPages } from '../web-pages.js';
import { InvoiceOperationsService } from './invoice-operations.service.js';
import { InvoicePageService } from './invoice-page.service.js';
import { asSignedIn, takeNotice } from './invoice-web.js';
import { InvoicePage } from './views/invoice-page.js';

@Public()
@ApiExcludeController()
@Controller('invoices')
export class InvoicePageController {
  constructor(
    private readonly pages: WebPages,
    private readonly invoices: InvoicePageService,
    private readonly operations: InvoiceOperationsService,
  ) {}

  @Get(':id')
  async invoicePage(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, async (user, page) => {
      const props = await this.invoices.page(user, id);
      await this.pages.send(res, 200, InvoicePage({ page, props: { ...props, notice: takeNotice(req, page.lang) } }));
    });
  }

  @Get(':id/pdf')
  pdf(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.document(id, 'pdf', req, res);
  }

  @Get(':id/attachment')
  attachment(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.document(id, 'attachment', req, res);
  }

  @Get(':id/reminders/:reminderId/letter')
  async reminderLetter(@Param('id') id: string, @Param('reminderId') reminderId: string, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, async (user) => {
      this.sendPdf(req, res, await this.invoices.letter(user, id, reminderId));
    });
  }

  /** The invoice's postal letter (for a letter the client posts itself: stored on first download). */
  @Get(':id/letter')
  async invoiceLetter(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, async (user) => {
      this.sendPdf(req, res, await this.invoices.letter(user, id, null));
    });
  }

  @Get(':id/statement_of_claim')
  async statementOfClaim(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await asSignedIn(this.pages, req, res, async (user) => {
      this.sendPdf(req, res, await this.operations.statementOfClaim(user, id));
    });
  }

  private sendPdf(req: Request, res: Response, letter: { pdf: Buffer; filename: string }) {
    this.pdfHeaders(req, res, letter.filename, letter.pdf.length);
    res.end(letter.pdf);
  }

  private async document(id: string, which: 'pdf' | 'attachment', req: Request, res: Response) {
    await asSignedIn(this.pages, req, res, async (user) => {
      const file = await this.invoices.openDocument(user, id, which);
      this.pdfHeaders(req, res, file.filename, file.size);
      await pipeline(file.stream, res);
    });
  }

  /** As the API serves them: sandboxed, a download unless ?inline=true; private to the session. */
  private pdfHeaders(req: Request, res: Response, filename: string, size: number | undefined) {
    setStoredDocumentHeaders(res, filename, wantsInline(req.query.inline));
    res.status(200).type('application/pdf').setHeader('Cache-Control', 'no-store');
    if (size !== undefined) res.setHeader('Content-Length', String(size));
  }
}
