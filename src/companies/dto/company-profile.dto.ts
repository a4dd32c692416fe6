import { IsIn } from 'class-validator';
import { IsEmailAddress, OptionalText, RequiredText } from '../../common/fields.js';
import { TextField } from '../../common/transforms.js';

/** The IANA time zones the runtime knows, and UTC (which Intl lists under no region). */
export const TIME_ZONES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone')];

/** A company's name, time zone and contact e-mail address (the web app's company settings). */
export class CompanyProfileDto {
  @RequiredText(255, 'Muster GmbH') readonly name!: string;

  @TextField()
  @IsIn(TIME_ZONES as string[], { message: 'time_zone must be an IANA time zone such as Europe/Berlin' })
  readonly time_zone!: string;

  /** Where the service's notices to the company go; empty clears it. */
  @OptionalText(254) @IsEmailAddress() readonly contact_email?: string | null;
}
