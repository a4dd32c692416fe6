// Self-registration of a company; only in development (DESIGN.md), a 404 in production.
import { Body, Controller, HttpCode, Inject, Logger, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CompaniesService } from './companies.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { AppError, validationFailed } from '../common/errors.js';
import { Public } from '../auth/auth.decorators.js';
import { RegistrationDto } from './dto/registration.dto.js';
import { RegistrationSchema, serializeRegistration } from './registration.serializer.js';
import { passwordWeaknesses } from '../auth/secrets.js';
import { ApiCreated, ApiDoc, ApiFormBody, ApiProblems } from '../openapi/responses.js';

@ApiTags('registrations')
@Controller('api/v1/registrations')
export class RegistrationsController {
  private readonly logger = new Logger(RegistrationsController.name);

  constructor(
    private readonly companies: CompaniesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Post()
  @ApiDoc(
    'Register a company',
    'Creates a company with its first user, API token and API key. Only where registration is enabled (development); elsewhere 404.',
  )
  @HttpCode(201)
  @ApiFormBody()
  @ApiCreated(RegistrationSchema, 'The company and its first credentials (development only)')
  @ApiProblems(400, 404, 409, 413, 415, 422, 429)
  async register(@Body() body: RegistrationDto) {
    if (this.config.env === 'production') throw new AppError('registration.disabled', 'Self-registration is not available');
    const weaknesses = passwordWeaknesses(body.password);
    if (weaknesses.length > 0) {
      throw validationFailed([{ field: 'password', message: `password needs ${weaknesses.join(', ')}` }]);
    }
    const created = await this.companies.createCompany(body.company_name, body.email, body.password);
    const registration = serializeRegistration(created);
    this.logger.log({ company: registration.company.id }, 'company registered');
    return registration;
  }
}
