// Shared by the ERP e2e suites: the app configured for a local SAP stand-in, connection bodies for
// each auth method, and running a pull to its end through the API.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { AppConfig } from '../../src/config/app.config.js';
import { loadErpConfig } from '../../src/config/erp.config.js';
import { ErpPullService } from '../../src/erp-pull/run/erp-pull.service.js';
import { withoutRateLimits } from './factories.js';
import type { ErpPki } from './pki.js';
import type { SapItem, SapODataServer, SapPartner } from './sap-odata-server.js';
import type { TestCompany } from './test-app.js';

export const CLIENT_ID = 'RECEIVABLES_CC';
export const CLIENT_SECRET = 'Cl1ent-S3cret!x';
export const TECH_USER = 'RECEIVABLES';
export const TECH_PASSWORD = 'T3chnical-User!pw';

/** Private networks allowed (the stand-in listens on 127.0.0.1), fast retries, workers as asked. */
export function erpTestConfig(env: Record<string, string> = {}): Partial<AppConfig> {
  return {
    ...withoutRateLimits(),
    erp: loadErpConfig({ ERP_ALLOW_PRIVATE_NETWORKS: 'true', ERP_PULL_WORKER: 'false', ERP_RETRY_BASE_DELAY_MS: '40', ERP_HEADERS_TIMEOUT_MS: '3000', ERP_BODY_TIMEOUT_MS: '3000', ...env }),
  };
}

export function authFor(server: SapODataServer, pki: ErpPki): Record<string, unknown> {
  switch (server.options.auth) {
    case 'oauth':
      return { auth_method: 'oauth_client_credentials', token_url: `${server.origin}/oauth/token`, client_id: CLIENT_ID, client_secret: CLIENT_SECRET };
    case 'basic':
      return { auth_method: 'basic', username: TECH_USER, password: TECH_PASSWORD };
    case 'x509':
      return { auth_method: 'x509', client_certificate: pki.clientCert, private_key: pki.clientKey };
    default:
      return { auth_method: 'basic', username: 'anyone', password: 'anything-goes' };
  }
}

export function connectionBody(server: SapODataServer, pki: ErpPki, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `SAP ${server.options.version} ${server.options.auth}`,
    base_url: server.origin,
    odata_version: server.options.version,
    ca_certificates: pki.ca,
    ...(server.options.sapClient ? { sap_client: server.options.sapClient } : {}),
    ...authFor(server, pki),
    ...overrides,
  };
}

export function erpApi(app: INestApplication, company: TestCompany) {
  const http = () => request(app.getHttpServer());
  const auth = (req: request.Test) => req.set('Authorization', company.auth);
  return {
    create: (body: Record<string, unknown>) => auth(http().post('/api/v1/erp_connections').send(body)),
    get: (path: string) => auth(http().get(path)),
    patch: (path: string, body: Record<string, unknown>) => auth(http().patch(path).send(body)),
    post: (path: string, body: Record<string, unknown> = {}) => auth(http().post(path).send(body)),
    delete: (path: string) => auth(http().delete(path)),
  };
}

const uuidOf = (publicId: string) => publicId.slice(publicId.indexOf('-') + 1);

/** POST …/pulls, then the job executed here (the suites run without background workers), then the run as the API shows it. */
export async function runPull(app: INestApplication, company: TestCompany, connectionId: string, mode?: 'full'): Promise<Record<string, any>> {
  const api = erpApi(app, company);
  const started = await api.post(`/api/v1/erp_connections/${connectionId}/pulls`, mode ? { mode } : {});
  if (started.status !== 202) throw new Error(`pull not started: ${started.status} ${JSON.stringify(started.body)}`);
  const runId: string = started.body.pull_run.id;
  await app.get(ErpPullService).handleJob({ companyId: uuidOf(company.id), runId: uuidOf(runId) });
  return (await api.get(`/api/v1/erp_connections/${connectionId}/pulls/${runId}`).expect(200)).body.pull_run;
}

export { uuidOf };

export function sapItem(n: number, overrides: Partial<SapItem> = {}): SapItem {
  return {
    CompanyCode: '1010',
    FiscalYear: '2026',
    AccountingDocument: String(1_800_000_000 + n),
    AccountingDocumentItem: '001',
    Customer: '17100001',
    CustomerName: 'Muster GmbH',
    FinancialAccountType: 'D',
    IsCleared: false,
    AmountInTransactionCurrency: '119.000',
    TransactionCurrency: 'EUR',
    DocumentDate: '2026-01-15',
    PostingDate: '2026-01-16',
    NetDueDate: '2026-02-14',
    ClearingDate: null,
    ClearingAccountingDocument: '',
    DocumentReferenceID: `RE-${90_000 + n}`,
    AccountingDocumentType: 'DR',
    LastChangeDate: '2026-01-16',
    PaymentTerms: '0001',
    DunningLevel: '0',
    DunningBlockingReason: '',
    BillingDocument: String(90_000_000 + n),
    ...overrides,
  };
}

export function sapPartner(customer: string, overrides: Partial<SapPartner> = {}): SapPartner {
  return {
    BusinessPartner: String(10_000_000 + Number(customer.slice(-4))),
    Customer: customer,
    BusinessPartnerFullName: `Kunde ${customer} GmbH`,
    OrganizationBPName1: `Kunde ${customer}`,
    CorrespondenceLanguage: 'DE',
    CreationDate: '2025-03-01',
    LastChangeDate: '2026-01-10',
    address: { StreetName: 'Hauptstraße', HouseNumber: '5a', PostalCode: '10115', CityName: 'Berlin', Country: 'DE', email: `ap-${customer}@kunde.example`, phone: '+49 30 1234567' },
    ...overrides,
  };
}
