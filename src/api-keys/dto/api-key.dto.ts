import { OptionalText } from '../../common/fields.js';

/** POST /api/v1/api_keys */
export class CreateApiKeyDto {
  @OptionalText(100, 'ERP middleware') readonly name?: string | null;
}
