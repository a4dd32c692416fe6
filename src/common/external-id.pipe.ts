// The `<external_id>` of a find route: trimmed like stored ids are; text no record can hold finds nothing.
import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from './errors.js';
import { isStorableText } from './text.js';

@Injectable()
export class ExternalIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    const externalId = value.trim();
    if (!externalId || externalId.length > 255 || !isStorableText(externalId)) {
      throw new AppError('request.not_found', `Nothing has the external_id "${value}"`);
    }
    return externalId;
  }
}
