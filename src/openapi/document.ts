// The OpenAPI document, built from the controllers' decorators: the same object is served at
// /api/docs-json and written to the committed openapi.json (src/openapi/write-openapi.ts).
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, type SecuritySchemeObject, SwaggerModule } from '@nestjs/swagger';
import type { AuthScheme } from '../auth/principal.js';
import { RegistrationSchema } from '../companies/registration.serializer.js';
import { ContactResponseSchema } from '../contacts/contact.serializer.js';
import { CustomerListSchema, CustomerSchema } from '../customers/customer.serializer.js';
import {
  ConnectionTestResponseSchema,
  ErpConnectionListSchema,
  ErpConnectionResponseSchema,
} from '../erp-pull/connections/erp-connection.serializer.js';
import { PullRunListSchema, PullRunResponseSchema } from '../erp-pull/run/pull-run.serializer.js';
import {
  ApprovalResultSchema,
  RejectionResultSchema,
  StartedRunSchema,
  WaitingReminderListSchema,
} from '../dunning/approvals/approvals.serializer.js';
import { InvoiceEventListSchema } from '../invoices/invoice-event.serializer.js';
import { InvoiceListSchema, InvoiceResponseSchema } from '../invoices/invoice.serializer.js';
import {
  AuditLogSchema,
  DeadLetterListSchema,
  PushDocumentListSchema,
  PushDocumentResponseSchema,
} from '../push/documents/push-document.serializer.js';
import {
  ApiKeyListSchema,
  ApiKeyResponseSchema,
  NewApiKeyResponseSchema,
  RotatedApiKeyResponseSchema,
} from '../api-keys/api-key.serializer.js';
import {
  DunningPolicyResponseSchema,
  DunningProposalSchema,
  DunningRunListSchema,
  DunningRunResponseSchema,
} from '../dunning/dunning.serializer.js';
import {
  NewOAuthApplicationResponseSchema,
  OAuthApplicationListSchema,
  OAuthApplicationResponseSchema,
} from '../oauth/oauth-application.serializer.js';
import { OAuthErrorSchema, OAuthTokenSchema } from '../oauth/oauth.schema.js';
import { InvoiceDeliveriesSchema } from '../shipping/delivery/delivery.serializer.js';
import { ShippingSettingsResponseSchema } from '../shipping/settings/shipping-settings.serializer.js';
import { ShipmentAttentionListSchema } from '../shipping/shipments/shipment.serializer.js';
import { AuthenticationCheckSchema } from './auth.schema.js';
import { LivenessSchema, ReadinessSchema } from './health.schema.js';
import { ProblemSchema } from './problem.schema.js';
import { type ObjectSchema, openApiComponents } from './schema.js';

const DESCRIPTION = [
  'Customers, contacts and invoices, dunning, and the ERP integration.',
  'Errors are RFC 9457 problem documents (`application/problem+json`) with a stable `code` and the `request_id`.',
  'Decimals are JSON strings ("119.0"), dates `YYYY-MM-DD`, datetimes ISO 8601 with the company’s UTC offset.',
  'Bodies are forms (`application/x-www-form-urlencoded`, nested with bracket names such as `customer[name]`) or JSON; invoice creation is `multipart/form-data`.',
  'Every response carries `X-Request-ID`: the client’s value when it sent a sane one, else a generated one.',
  'Rate-limited routes answer with `RateLimit-Remaining`, and with 429 and `Retry-After` once the limit is used up.',
  'While the database cannot be reached every route answers 503 with `Retry-After`: retry the same request later.',
].join('\n\n');

/** Every credential scheme of @Authenticated(...) (the compiler checks the list is complete); `token` is the default. */
const SECURITY_SCHEMES: Record<AuthScheme, SecuritySchemeObject> = {
  token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token token=<API token>' },
  apikey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'ApiKey <API key>' },
  // `Authorization: Bearer <access token>` from the authorization code flow (PKCE optional: confidential clients).
  bearer: {
    type: 'oauth2',
    description: 'Bearer <OAuth 2.0 access token>, from an application registered at /api/v1/oauth_applications',
    flows: {
      authorizationCode: {
        authorizationUrl: '/oauth/authorize',
        tokenUrl: '/oauth/token',
        refreshUrl: '/oauth/token',
        scopes: { push: 'Push business documents to /v2 and read them back' },
      },
    },
  },
};

/** Headers that responses refer to by `#/components/headers/<name>`. */
const HEADERS = {
  'X-Request-ID': { description: 'The request id, also in every log line of the request', schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'The accepted scheme, e.g. `Token realm="api"`', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
  'Content-Disposition': { description: '`inline; filename="<invoice number>.pdf"`', schema: { type: 'string' } },
  Location: { description: 'The path of the created resource', schema: { type: 'string' } },
  'Content-Location': { description: 'The path of the resource the answer shows', schema: { type: 'string' } },
  Sunset: {
    description:
      'Only for an API key that expires within API_KEY_EXPIRY_WARNING_DAYS (default 14), or a rotated key in its grace period: when it stops working (RFC 8594, HTTP date)',
    schema: { type: 'string', example: 'Sat, 21 Feb 2027 19:53:00 GMT' },
  },
  'API-Key-Expires-At': {
    description: 'Sent with Sunset: the same instant, ISO 8601 with the company’s UTC offset',
    schema: { type: 'string', format: 'date-time', example: '2027-02-21T20:53:00+01:00' },
  },
};

/** The answers' schemas (each serializer's file holds its own); the components they nest come along. */
const RESPONSE_SCHEMAS: readonly ObjectSchema[] = [
  AuthenticationCheckSchema,
  RegistrationSchema,
  CustomerSchema,
  CustomerListSchema,
  ContactResponseSchema,
  InvoiceResponseSchema,
  InvoiceListSchema,
  InvoiceEventListSchema,
  PushDocumentResponseSchema,
  PushDocumentListSchema,
  DeadLetterListSchema,
  AuditLogSchema,
  ErpConnectionResponseSchema,
  ErpConnectionListSchema,
  ConnectionTestResponseSchema,
  PullRunResponseSchema,
  PullRunListSchema,
  WaitingReminderListSchema,
  ApprovalResultSchema,
  RejectionResultSchema,
  StartedRunSchema,
  ApiKeyResponseSchema,
  NewApiKeyResponseSchema,
  RotatedApiKeyResponseSchema,
  ApiKeyListSchema,
  OAuthApplicationResponseSchema,
  NewOAuthApplicationResponseSchema,
  OAuthApplicationListSchema,
  OAuthTokenSchema,
  OAuthErrorSchema,
  DunningPolicyResponseSchema,
  DunningRunResponseSchema,
  DunningRunListSchema,
  DunningProposalSchema,
  InvoiceDeliveriesSchema,
  ShipmentAttentionListSchema,
  ShippingSettingsResponseSchema,
  LivenessSchema,
  ReadinessSchema,
  ProblemSchema,
];

const REQUEST_ID_PARAMETER = {
  name: 'X-Request-ID',
  in: 'header' as const,
  required: false,
  description: 'A client-chosen id for tracing (up to 200 of `A-Z a-z 0-9 _ - . : / @`), echoed on the response',
  schema: { type: 'string', maxLength: 200, pattern: '^[\\w\\-.:/@]{1,200}$' },
};

export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Receivables Management Service')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .addServer('{public_url}', 'This instance (its PUBLIC_URL)', {
      public_url: { default: 'http://localhost:3000', description: 'The PUBLIC_URL the instance is configured with' },
    })
    .addSecurityRequirements('token')
    .build();
  // The service is not open source (package.json: private); the document says so rather than nothing.
  config.info.license = { name: 'Proprietary' };
  config.components = {
    securitySchemes: SECURITY_SCHEMES,
    headers: HEADERS,
    parameters: { 'X-Request-ID': REQUEST_ID_PARAMETER },
    schemas: openApiComponents(RESPONSE_SCHEMAS),
  };
  return withRequestIds(withNullInNullableEnums(withResolvedRefs(SwaggerModule.createDocument(app, config))));
}

/** A controller's schema missing from RESPONSE_SCHEMAS would leave a dangling `$ref`: fail at once instead. */
function withResolvedRefs(document: OpenAPIObject): OpenAPIObject {
  const names = new Set(Object.keys(document.components?.schemas ?? {}));
  const dangling = [...JSON.stringify(document).matchAll(/"#\/components\/schemas\/([^"]+)"/g)]
    .map((match) => match[1])
    .filter((name) => !names.has(name));
  if (dangling.length > 0)
    throw new Error(`Response schemas missing from RESPONSE_SCHEMAS (src/openapi/document.ts): ${[...new Set(dangling)].join(', ')}`);
  return document;
}

/**
 * A nullable enum lists null among its values (OpenAPI 3.0.3: `nullable` does not widen an `enum`), so
 * that strict validators and generated clients accept the null the service takes and sends. The
 * response schemas do it themselves (enumProperty); this covers the request DTOs' (@OptionalEnum).
 */
function withNullInNullableEnums(document: OpenAPIObject): OpenAPIObject {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const schema = node as { nullable?: boolean; enum?: unknown[] };
    if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    Object.values(node).forEach(visit);
  };
  visit(document);
  return document;
}

/** The request-id middleware runs for every route: every operation takes the header and every response carries it. */
function withRequestIds(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (!operation) continue;
      operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/X-Request-ID' }];
      for (const response of Object.values(operation.responses)) {
        if (!response || '$ref' in response) continue;
        response.headers = { 'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' }, ...response.headers };
      }
    }
  }
  return document;
}
