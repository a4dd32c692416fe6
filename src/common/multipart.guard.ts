// multipart/form-data is read only by routes with a multipart parser (PdfUploadInterceptor marks them).
// Elsewhere nothing would read such a body: the handler would see no fields and answer a misleading
// 422 "name is required". A 415 says what happened instead.
import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError } from './errors.js';

const READS_MULTIPART = 'reads_multipart';

/** For a route (or controller) whose handler reads a multipart body. */
export const ReadsMultipart = () => SetMetadata(READS_MULTIPART, true);

const isMultipart = (req: Request) => /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '');

@Injectable()
export class MultipartGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http' || !isMultipart(context.switchToHttp().getRequest<Request>())) return true;
    if (this.reflector.getAllAndOverride<boolean>(READS_MULTIPART, [context.getHandler(), context.getClass()])) return true;
    throw new AppError(
      'request.unsupported_media_type',
      'This endpoint reads forms (application/x-www-form-urlencoded) and JSON, not multipart/form-data',
    );
  }
}
