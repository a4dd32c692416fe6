// GET / — the spec's authentication check: answers with the company the token belongs to.
import { Controller, Get } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { toPublicId } from '../common/ids.js';
import { CurrentCompany } from './auth.decorators.js';
import type { CompanyContext } from './principal.js';
import { AuthenticationCheckSchema } from '../openapi/auth.schema.js';
import { ApiDoc, ApiOk, ApiProblems } from '../openapi/responses.js';

@ApiTags('authentication')
@Controller()
export class RootController {
  @Get()
  @ApiDoc('Check a credential', 'Answers 200 with the company the credential belongs to; a quick way to test an API token or key.')
  @ApiOk(AuthenticationCheckSchema, 'The credential is valid')
  @ApiProblems(401, 403, 429)
  @ApiResponse({
    status: 302,
    description: 'A browser (Accept: text/html, no Authorization header) is sent to the web app: Location /dashboard',
    headers: { Location: { description: '/dashboard', schema: { type: 'string' } } },
  })
  check(@CurrentCompany() company: CompanyContext) {
    return { company: { id: toPublicId('cmp', company.id), name: company.name } };
  }
}
