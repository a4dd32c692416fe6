// Auth is declared once per controller or handler; the global CredentialGuard enforces it.
import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthScheme, CompanyContext, Principal } from './principal.js';

export const AUTH_SCHEMES = 'auth:schemes';

/** No credential needed (health, registration); `security: [{}]` tells OpenAPI readers the same. */
export const Public = (): MethodDecorator & ClassDecorator => applyDecorators(SetMetadata(AUTH_SCHEMES, []), ApiSecurity({}));

/** Which credentials a route accepts; routes without the decorator accept the REST API token. */
export const Authenticated = (...schemes: AuthScheme[]): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(AUTH_SCHEMES, schemes), ...schemes.map((s) => ApiSecurity(s, s === 'bearer' ? ['push'] : [])));

export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): Principal => ctx.switchToHttp().getRequest<Request>().user as Principal,
);

/** The authenticated company: every tenant query is scoped by it. */
export const CurrentCompany = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): CompanyContext => (ctx.switchToHttp().getRequest<Request>().user as Principal).company,
);

/** Who acts, as recorded in invoice events: the API credential of the request. */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const principal = ctx.switchToHttp().getRequest<Request>().user as Principal;
  return { type: principal.scheme === 'token' ? ('api' as const) : ('push' as const), id: principal.credentialId };
});
