import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';
import { IsEmailAddress, RequiredText } from '../../common/fields.js';

export class RegistrationDto {
  @RequiredText(255, 'Muster GmbH')
  readonly company_name!: string;

  // RequiredText refuses NUL characters; IsEmailAddress then checks the form.
  @RequiredText(254, 'buchhaltung@muster.de')
  @IsEmailAddress()
  readonly email!: string;

  @ApiProperty({ description: 'At least 12 characters with upper case, lower case, a digit and a special character', maxLength: 200 })
  @IsDefined({ message: 'password is required' }) @IsString() @MaxLength(200)
  readonly password!: string;
}
