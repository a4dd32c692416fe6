import { OptionalText } from '../../common/fields.js';

/** DELETE /v2/dead_letters/<id>: why the document is given up. */
export class DiscardDto {
  @OptionalText(2000, 'duplicate of RE-2026-0041, booked by hand') readonly reason?: string | null;
}
