// The OAuth 2.0 endpoints' documentation: RFC 6749 token answers and error bodies (not problem
// documents: OAuth clients expect `error`/`error_description`), the consent page, and the parameters.
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { enumProperty, integerProperty, textProperty } from '../openapi/properties.js';
import { ProblemSchema } from '../openapi/problem.schema.js';
import { component, schemaRef } from '../openapi/schema.js';

export const OAuthTokenSchema = component('OAuthToken', {
  access_token: textProperty({ example: 'roa_…', description: 'Sent as `Authorization: Bearer <access_token>` to /v2' }),
  token_type: enumProperty(['Bearer']),
  expires_in: integerProperty({ minimum: 1, example: 3600, description: 'Seconds the access token is valid' }),
  refresh_token: textProperty({ example: 'ror_…', description: 'For grant_type=refresh_token; a new one comes with every answer' }),
  scope: textProperty({ example: 'push' }),
});

export const OAuthErrorSchema = component(
  'OAuthError',
  {
    error: textProperty({ example: 'invalid_grant', description: 'RFC 6749 § 5.2 error code' }),
    error_description: textProperty({ example: 'Invalid grant: authorization code is invalid' }),
  },
  { description: 'RFC 6749 § 5.2 error body', optional: ['error_description'] },
);

const HTML = { 'text/html': { schema: { type: 'string' } } };
const OAUTH_ERROR = { 'application/json': { schema: schemaRef(OAuthErrorSchema) } };
/** What the service refuses before these endpoints see the request (a malformed body or query, a control character). */
const PROBLEM = { 'application/problem+json': { schema: schemaRef(ProblemSchema) } };
const REFUSED = 'Before the endpoint: a malformed body or query (a problem document)';
const REDIRECT = {
  status: 302,
  description: 'To the redirect_uri with `code` and `state`, or with `error` (RFC 6749 § 4.1.2)',
  headers: { Location: { $ref: '#/components/headers/Location' } },
};

const AUTHORIZE_QUERY = [
  { name: 'response_type', required: true, enum: ['code'] },
  { name: 'client_id', required: true },
  { name: 'redirect_uri', required: true, description: 'One of the application’s registered redirect URIs' },
  { name: 'scope', required: false, enum: ['push'] },
  { name: 'state', required: false, description: 'Sent back unchanged with the code' },
  { name: 'code_challenge', required: false, description: 'PKCE (RFC 7636), optional: the clients are confidential' },
  { name: 'code_challenge_method', required: false, enum: ['S256'] },
] as const;

export const ApiAuthorizePage = () =>
  applyDecorators(
    ApiOperation({
      summary: 'OAuth authorization page',
      description:
        'The start of the authorization code flow (RFC 6749 § 4.1.1): a login-and-consent page for a user of the company that registered the application.',
    }),
    ...AUTHORIZE_QUERY.map((query) => ApiQuery({ ...query, type: 'string' })),
    ApiProduces('text/html'),
    ApiResponse({ status: 200, description: 'The login-and-consent page', content: HTML }),
    ApiResponse(REDIRECT),
    ApiResponse({
      status: 400,
      description: `An unknown client or an unregistered redirect_uri: an error page. ${REFUSED}`,
      content: { ...HTML, ...PROBLEM },
    }),
  );

export const ApiAuthorizeDecision = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Submit the OAuth consent',
      description:
        'The consent form: the user’s e-mail and password and `decision=allow`; anything else denies (302 with error=access_denied).',
    }),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({
      schema: {
        type: 'object',
        required: ['response_type', 'client_id', 'redirect_uri', 'decision'],
        properties: {
          ...Object.fromEntries(AUTHORIZE_QUERY.map(({ name }) => [name, { type: 'string' }])),
          decision: { type: 'string', enum: ['allow', 'deny'] },
          email: { type: 'string' },
          password: { type: 'string', format: 'password' },
        },
      },
    }),
    ApiResponse(REDIRECT),
    ApiResponse({
      status: 400,
      description: `An unknown client or an unregistered redirect_uri: an error page. ${REFUSED}`,
      content: { ...HTML, ...PROBLEM },
    }),
    ApiResponse({ status: 401, description: 'Wrong e-mail or password: the page again with the message', content: HTML }),
    ApiResponse({ status: 429, description: 'Too many failed logins: the page with the message', content: HTML }),
  );

export const ApiTokenEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Get or refresh an OAuth access token',
      description:
        'RFC 6749 § 4.1.3 and § 6: `grant_type=authorization_code` (with `code`, `redirect_uri` and, when the code has a challenge, `code_verifier`) or `grant_type=refresh_token`. The client authenticates with `client_id` and `client_secret` form fields or HTTP Basic. Refresh tokens rotate.',
    }),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({
      schema: {
        type: 'object',
        required: ['grant_type'],
        properties: {
          grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
          code: { type: 'string' },
          redirect_uri: { type: 'string' },
          code_verifier: { type: 'string' },
          refresh_token: { type: 'string' },
          client_id: { type: 'string' },
          client_secret: { type: 'string', format: 'password' },
        },
      },
    }),
    ApiResponse({ status: 200, description: 'The tokens (`Cache-Control: no-store`)', schema: schemaRef(OAuthTokenSchema) }),
    ApiResponse({
      status: 400,
      description: `invalid_request, invalid_grant, unsupported_grant_type, invalid_scope. ${REFUSED}`,
      content: { ...OAUTH_ERROR, ...PROBLEM },
    }),
    ApiResponse({ status: 401, description: 'invalid_client: the client authentication failed', content: OAUTH_ERROR }),
    ApiResponse({
      status: 429,
      description: 'Too many failed client authentications',
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
      content: OAUTH_ERROR,
    }),
    ApiResponse({
      status: 503,
      description: 'server_error: the database is away; retry later',
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
      content: OAUTH_ERROR,
    }),
  );
