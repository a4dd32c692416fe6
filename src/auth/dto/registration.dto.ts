import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { TextField } from '../../common/transforms.js';

export class RegistrationDto {
  @ApiProperty({ example: 'Muster GmbH' })
  @TextField() @IsString() @IsNotEmpty() @MaxLength(255)
  readonly company_name!: string;

  @ApiProperty({ example: 'buchhaltung@muster.de' })
  @TextField() @IsEmail() @MaxLength(254)
  readonly email!: string;

  @ApiProperty({ description: 'At least 12 characters with upper case, lower case, a digit and a special character' })
  @IsString() @MaxLength(200)
  readonly password!: string;
}
