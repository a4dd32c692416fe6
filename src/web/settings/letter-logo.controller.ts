// The letterhead's logo (owners only): the stored image for the page's preview, upload and removal.
// The upload's body was read by logo-upload.ts; the service checks the image by its bytes.
import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { ReadsMultipart } from '../../common/multipart.guard.js';
import { refusalOf } from '../dunning/dunning-pages.js';
import { MessagePage } from '../views/simple-pages.js';
import { companyOf, WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import type { LogoUploadRefusal, LogoUploadRequest } from './logo-upload.js';
import { ShippingSettingsView } from './shipping-settings.view.js';

const STATUS: Record<LogoUploadRefusal | 'missing', number> = { tooLarge: 413, notImage: 422, missing: 422 };

@Public()
@ApiExcludeController()
@Controller('settings/shipping/logo')
export class LetterLogoController {
  constructor(
    private readonly pages: WebPages,
    private readonly view: ShippingSettingsView,
  ) {}

  @Get()
  async image(@Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    const logo = await this.view.service.logo(companyOf(user));
    if (!logo) return this.pages.send(res, 404, MessagePage({ page: this.pages.context(req, res, user), kind: 'notFound' }));
    res.status(200).type(logo.contentType).setHeader('Cache-Control', 'no-store').send(Buffer.from(logo.bytes));
  }

  @Post()
  @HttpCode(200)
  @ReadsMultipart()
  async upload(@Req() req: LogoUploadRequest, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    if (req.logoRefusal) return this.refuse(req, res, user, req.logoRefusal);
    if (!req.file?.buffer.length) return this.refuse(req, res, user, 'missing');
    try {
      await this.view.service.setLogo(companyOf(user), req.file.buffer);
    } catch (error) {
      refusalOf(error);
      return this.refuse(req, res, user, 'notImage');
    }
    res.redirect(303, '/settings/shipping?done=uploaded');
  }

  @Post('remove')
  @HttpCode(200)
  async remove(@Req() req: Request, @Res() res: Response) {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    await this.view.service.removeLogo(companyOf(user));
    res.redirect(303, '/settings/shipping?done=removed');
  }

  /** The page again with the reason beside the file field; nothing was stored. */
  private refuse(req: Request, res: Response, user: SignedInUser, refusal: LogoUploadRefusal | 'missing') {
    const page = this.pages.context(req, res, user);
    return this.view.send(res, STATUS[refusal], companyOf(user), page, { logoError: page.lang.t(`settings.logo.${refusal}`) });
  }
}
