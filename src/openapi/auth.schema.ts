// Response schemas of the authentication check (GET /, src/auth/root.controller.ts) and of the
// self-registration (src/companies/registration.serializer.ts), whose secrets are shown only this once.
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DateTimeProperty, IdProperty, TextProperty } from './properties.js';

@ApiSchema({ name: 'Company' })
export class CompanySchema {
  @IdProperty('cmp', 'Service id of the company') readonly id!: string;
  @TextProperty({ example: 'Muster GmbH' }) readonly name!: string;
}

@ApiSchema({ name: 'AuthenticationCheck', description: 'The company the credential belongs to' })
export class AuthenticationCheckSchema {
  @ApiProperty({ type: CompanySchema }) readonly company!: CompanySchema;
}

@ApiSchema({ name: 'RegisteredUser' })
export class RegisteredUserSchema {
  @ApiProperty({ type: String, format: 'email', example: 'buchhaltung@muster.de' }) readonly email!: string;
}

@ApiSchema({ name: 'Registration', description: 'The new company and its first credentials; the secrets are shown only in this answer' })
export class RegistrationSchema {
  @ApiProperty({ type: CompanySchema }) readonly company!: CompanySchema;
  @ApiProperty({ type: RegisteredUserSchema }) readonly user!: RegisteredUserSchema;
  @ApiProperty({ type: String, pattern: '^rt_[A-Za-z0-9_-]{43}$', description: 'For `Authorization: Token token=<api_token>`' })
  readonly api_token!: string;
  @ApiProperty({ type: String, pattern: '^rk_[A-Za-z0-9_-]{43}$', description: 'For `Authorization: ApiKey <api_key>` (push)' })
  readonly api_key!: string;
  @DateTimeProperty({ description: 'The API key expires 90 days after creation' }) readonly api_key_expires_at!: string;
}
