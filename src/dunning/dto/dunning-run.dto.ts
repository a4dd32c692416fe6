import { OptionalDate } from '../../common/fields.js';

export class StartRunDto {
  @OptionalDate('development and test only: the business date to run for (default today)') readonly date?: string | null;
}
