// A local stand-in for an SAP system: SAP-shaped OData V2 or V4 payloads of the business partner API
// and the receivable item cube over real HTTPS (node:https, the test PKI), with a client-credentials
// token endpoint, Basic auth or client certificates, sap-client, $filter/$select/$expand/$top/$skip,
// server paging with $skiptoken (next links optionally on an internal host), counts, and injectable
// faults (status codes with Retry-After, connection resets, stalls). Used by the e2e tests and the bench.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { ErpPki } from './pki.js';

export const BP_PATH = '/sap/opu/odata/sap/API_BUSINESS_PARTNER/A_BusinessPartner';
export const ITEMS_PATH = '/sap/opu/odata/sap/API_OPLACCTGDOCITEMCUBE_SRV/A_OperationalAcctgDocItemCube';
/** The billing document's PDF (function import GetPDF of API_BILLING_DOCUMENT_SRV, OData V2). */
export const BILLING_PDF_PATH = '/sap/opu/odata/sap/API_BILLING_DOCUMENT_SRV/GetPDF';

/** A receivable item with SAP's property names; dates as YYYY-MM-DD, amounts as decimal text. */
export interface SapItem {
  CompanyCode: string;
  FiscalYear: string;
  AccountingDocument: string;
  AccountingDocumentItem: string;
  Customer: string;
  CustomerName: string;
  FinancialAccountType: string;
  IsCleared: boolean;
  AmountInTransactionCurrency: string;
  TransactionCurrency: string;
  DocumentDate: string;
  PostingDate: string;
  NetDueDate: string;
  ClearingDate: string | null;
  ClearingAccountingDocument: string;
  DocumentReferenceID: string;
  AccountingDocumentType: string;
  LastChangeDate: string;
  PaymentTerms: string;
  DunningLevel: string;
  DunningBlockingReason: string;
  BillingDocument: string;
}

export interface SapPartner {
  BusinessPartner: string;
  Customer: string;
  BusinessPartnerFullName: string;
  OrganizationBPName1: string;
  CorrespondenceLanguage: string;
  CreationDate: string;
  LastChangeDate: string | null;
  address: {
    StreetName: string;
    HouseNumber: string;
    PostalCode: string;
    CityName: string;
    Country: string;
    email: string;
    phone: string;
  } | null;
}

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; body?: string; match?: RegExp; times?: number }
  | { kind: 'reset'; match?: RegExp; times?: number }
  | { kind: 'stall'; match?: RegExp; times?: number }
  /** Answers 200 and then sends a byte every intervalMs, never finishing. */
  | { kind: 'trickle'; intervalMs: number; match?: RegExp; times?: number };

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  at: number;
  status: number;
  clientCertCn?: string;
}

export interface SapServerOptions {
  pki: ErpPki;
  version: 'v2' | 'v4';
  auth: 'oauth' | 'basic' | 'x509' | 'none';
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  /** Tokens stop working after this (the server enforces it); default 3600. */
  tokenLifetimeSeconds?: number;
  /** Which client authentication the token endpoint accepts (default: either, but never both at once). */
  tokenAuth?: 'client_secret_post' | 'client_secret_basic' | 'either';
  /** Requests without this sap-client parameter are answered 401 (SAP's default client rejects the user). */
  sapClient?: string;
  /** Server-driven page size (SAP: 100 or 1000); undefined: no server paging. */
  serverPageSize?: number;
  /** Sends every matching record at once, whatever $top and $skip say. */
  ignoreTop?: boolean;
  /** Next links name this origin instead of the server's own (an internal host name). */
  nextLinkOrigin?: string;
  /** Answers every $skip with the first window (a broken gateway). */
  ignoreSkip?: boolean;
  /** Every next link names the second page again (a broken server). */
  repeatNextLink?: boolean;
  /** Offers only TLS up to this version (e.g. 'TLSv1.1': an outdated ERP). */
  tlsMaxVersion?: 'TLSv1' | 'TLSv1.1';
}

const ITEM_DATES = ['DocumentDate', 'PostingDate', 'NetDueDate', 'ClearingDate', 'LastChangeDate'];
const ITEM_DECIMALS = ['AmountInTransactionCurrency'];

export class SapODataServer {
  readonly requests: RecordedRequest[] = [];
  readonly tokenRequests: Array<{ form: boolean; basic: boolean; ok: boolean; at: number }> = [];
  faults: Fault[] = [];
  /** Called with each request's path and query before it is answered (tests change the server's state here; awaited). */
  beforeHandle?: (target: string) => void | Promise<void>;
  items: SapItem[] = [];
  partners: SapPartner[] = [];
  /** The output (PDF) of each billing document by number; one without answers 404 as SAP does. */
  billingPdfs = new Map<string, Buffer>();
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  /** Issued tokens and when they expire (epoch ms). */
  private readonly tokens = new Map<string, number>();
  private readonly filterCache = new Map<string, unknown[]>();
  private dataVersion = 0;
  private cacheVersion = -1;
  origin = '';

  constructor(readonly options: SapServerOptions) {}

  async start(): Promise<this> {
    const { pki, auth } = this.options;
    this.server = createServer(
      {
        cert: pki.serverCert,
        key: pki.serverKey,
        ca: [pki.ca],
        requestCert: auth === 'x509',
        rejectUnauthorized: auth === 'x509',
        ...(this.options.tlsMaxVersion
          ? { minVersion: 'TLSv1' as const, maxVersion: this.options.tlsMaxVersion, ciphers: 'DEFAULT@SECLEVEL=0' }
          : { minVersion: 'TLSv1.2' as const }),
      },
      (req, res) => void this.handle(req, res),
    );
    this.server.on('secureConnection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Call after changing items or partners (cached filter results are dropped). */
  touch(): void {
    this.dataVersion++;
  }

  /** Every token issued so far stops working (as if it expired on the server's side). */
  expireTokens(): void {
    this.tokens.clear();
  }

  odataRequests(pathPart = '/sap/opu/'): RecordedRequest[] {
    return this.requests.filter((r) => r.url.includes(pathPart));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const record: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, at: Date.now(), status: 0 };
    const cert = (req.socket as TLSSocket).getPeerCertificate?.();
    if (cert && cert.subject) record.clientCertCn = String(cert.subject.CN);
    this.requests.push(record);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(text);
    };
    const body = await readBody(req);
    await this.beforeHandle?.(`${url.pathname}${url.search}`);
    const fault = this.takeFault(`${url.pathname}${url.search}`);
    if (fault?.kind === 'reset') {
      record.status = -1;
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'stall') {
      record.status = -2;
      return;
    }
    if (fault?.kind === 'trickle') {
      record.status = -3;
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), fault.intervalMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (fault?.kind === 'status') {
      return send(
        fault.status,
        fault.body ?? sapError(`FAULT/${fault.status}`, `Injected fault ${fault.status}`),
        fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
      );
    }
    if (url.pathname === '/oauth/token' && req.method === 'POST') return this.token(req, body, send);
    if (!this.authorized(req)) {
      return send(401, sapError('/IWFND/CM_CONSUMER/001', 'Logon failed'), {
        'www-authenticate': this.options.auth === 'oauth' ? 'Bearer' : 'Basic realm="SAP NetWeaver Application Server"',
      });
    }
    if (this.options.sapClient && url.searchParams.get('sap-client') !== this.options.sapClient) {
      return send(401, sapError('/IWFND/CM_CONSUMER/001', 'Logon failed: user unknown in the default client'));
    }
    if (url.pathname === ITEMS_PATH) return send(200, this.collection(url, req, 'items'));
    if (url.pathname === BP_PATH) return send(200, this.collection(url, req, 'partners'));
    if (url.pathname === BILLING_PDF_PATH) return this.billingPdf(url, send);
    const service = /\/sap\/opu\/odata\/sap\/([^/]+)/.exec(url.pathname)?.[1] ?? '';
    return send(404, sapError('/IWFND/MED/170', `No service found for namespace '', name '${service}', version '0001'`));
  }

  /** GetPDF?BillingDocument='90000001' → {"d":{"GetPDF":{"BillingDocumentBinary":"<base64>"}}}. */
  private billingPdf(url: URL, send: (status: number, body: unknown) => void): void {
    const number = /^'(.*)'$/.exec(url.searchParams.get('BillingDocument') ?? '')?.[1];
    const pdf = number === undefined ? undefined : this.billingPdfs.get(number);
    if (!pdf) return send(404, sapError('SDBIL_OUTPUT/001', `No output found for billing document ${number ?? '(none)'}`));
    send(200, {
      d: { GetPDF: { __metadata: { type: 'API_BILLING_DOCUMENT_SRV.GetPDFResult' }, BillingDocumentBinary: pdf.toString('base64') } },
    });
  }

  private takeFault(target: string): Fault | undefined {
    const index = this.faults.findIndex((f) => (f.times ?? 1) > 0 && (!f.match || f.match.test(target)));
    if (index < 0) return undefined;
    const fault = this.faults[index];
    fault.times = (fault.times ?? 1) - 1;
    if (fault.times <= 0) this.faults.splice(index, 1);
    return fault;
  }

  /**
   * The client credentials grant as a strict endpoint checks it: the client authenticates with the form
   * fields or with HTTP Basic, never both (RFC 6749 §2.3); Basic id and secret are form-urldecoded
   * after base64 (§2.3.1: '+' is a space, %XX a byte), split at the first colon.
   */
  private token(req: IncomingMessage, body: string, send: (status: number, body: unknown) => void): void {
    const form = new URLSearchParams(body);
    const header = req.headers.authorization ?? '';
    const formUrlDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
    let basic: [string, string] | undefined;
    if (header.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      try {
        basic = colon < 0 ? undefined : [formUrlDecode(decoded.slice(0, colon)), formUrlDecode(decoded.slice(colon + 1))];
      } catch {
        basic = undefined;
      }
    }
    const fromForm = form.has('client_secret');
    const record = { form: fromForm, basic: header.startsWith('Basic '), ok: false, at: Date.now() };
    this.tokenRequests.push(record);
    if (record.form && record.basic)
      return send(400, { error: 'invalid_request', error_description: 'more than one client authentication method' });
    const allowed = this.options.tokenAuth ?? 'either';
    if ((allowed === 'client_secret_post' && !fromForm) || (allowed === 'client_secret_basic' && !record.basic)) {
      return send(401, { error: 'invalid_client', error_description: `client authentication must be ${allowed}` });
    }
    const [id, secret] = basic ?? [form.get('client_id'), form.get('client_secret')];
    record.ok =
      req.headers['content-type']?.startsWith('application/x-www-form-urlencoded') === true &&
      form.get('grant_type') === 'client_credentials' &&
      id === this.options.clientId &&
      secret === this.options.clientSecret;
    if (!record.ok) return send(401, { error: 'invalid_client', error_description: 'Bad client credentials' });
    const token = randomBytes(16).toString('hex');
    const lifetime = this.options.tokenLifetimeSeconds ?? 3600;
    this.tokens.set(token, Date.now() + lifetime * 1000);
    send(200, { access_token: token, token_type: 'bearer', expires_in: lifetime, scope: 'API_BUSINESS_PARTNER_0001' });
  }

  private authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    switch (this.options.auth) {
      case 'none':
        return true;
      case 'oauth': {
        const expires = header.startsWith('Bearer ') ? this.tokens.get(header.slice(7)) : undefined;
        return expires !== undefined && Date.now() < expires;
      }
      case 'basic':
        return header === `Basic ${Buffer.from(`${this.options.username}:${this.options.password}`, 'utf8').toString('base64')}`;
      case 'x509':
        return (req.socket as TLSSocket).authorized === true;
    }
  }

  private matching(kind: 'items' | 'partners', filter: string | null): unknown[] {
    if (this.cacheVersion !== this.dataVersion) {
      this.filterCache.clear();
      this.cacheVersion = this.dataVersion;
    }
    const key = `${kind}|${filter ?? ''}`;
    let rows = this.filterCache.get(key);
    if (!rows) {
      const predicate = filter ? compileFilter(filter) : () => true;
      const source: Array<Record<string, unknown>> =
        kind === 'items' ? (this.items as unknown as Array<Record<string, unknown>>) : this.partners.map(partnerRow);
      const keyOf = kind === 'items' ? itemKey : (row: Row) => String(row.BusinessPartner);
      rows = source
        .filter(predicate)
        .map((row) => [keyOf(row), row] as const)
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([, row]) => row);
      this.filterCache.set(key, rows);
    }
    return rows;
  }

  private collection(url: URL, req: IncomingMessage, kind: 'items' | 'partners'): unknown {
    const q = url.searchParams;
    const rows = this.matching(kind, q.get('$filter'));
    const top = q.has('$top') ? Number(q.get('$top')) : Infinity;
    const skip = this.options.ignoreSkip ? 0 : Number(q.get('$skip') ?? 0);
    const windowEnd = Math.min(rows.length, skip + top);
    const start = q.has('$skiptoken') ? Number(q.get('$skiptoken')) : skip;
    const pageSize = this.options.serverPageSize ?? Infinity;
    let slice: unknown[];
    let next: string | undefined;
    if (this.options.ignoreTop) {
      slice = rows;
    } else {
      const end = Math.min(windowEnd, start + pageSize);
      slice = rows.slice(start, end);
      if (end < windowEnd) {
        const link = new URL(url.href);
        link.searchParams.delete('$inlinecount');
        link.searchParams.delete('$count');
        link.searchParams.set('$skiptoken', String(this.options.repeatNextLink ? Math.min(pageSize, windowEnd) : end));
        next = this.options.nextLinkOrigin ? `${this.options.nextLinkOrigin}${link.pathname}${link.search}` : link.href;
        // V4 services answer relative next links.
        if (this.options.version === 'v4' && !this.options.nextLinkOrigin) next = `${link.pathname.split('/').pop()}${link.search}`;
      }
    }
    const select = q.get('$select')?.split(',').filter(Boolean);
    const expand = (q.get('$expand') ?? '').length > 0;
    const strings = this.options.version === 'v2' || /IEEE754Compatible=true/i.test(String(req.headers.accept));
    const records = slice.map((row) =>
      kind === 'items'
        ? this.itemOut(row as SapItem, select, strings)
        : this.partnerOut(row as Record<string, unknown>, select, expand, strings),
    );
    const counted = q.get('$inlinecount') === 'allpages' || q.get('$count') === 'true';
    if (this.options.version === 'v2') {
      return { d: { results: records, ...(counted ? { __count: String(rows.length) } : {}), ...(next ? { __next: next } : {}) } };
    }
    return {
      '@odata.context': `$metadata#${kind === 'items' ? 'A_OperationalAcctgDocItemCube' : 'A_BusinessPartner'}`,
      ...(counted ? { '@odata.count': rows.length } : {}),
      value: records,
      ...(next ? { '@odata.nextLink': next } : {}),
    };
  }

  private dateOut(value: string | null, offset = false): string | null {
    if (value === null) return null;
    if (this.options.version === 'v4') return value;
    const ms = Date.parse(`${value}T00:00:00Z`);
    // Edm.DateTimeOffset: the milliseconds are UTC, the offset only says where the value was recorded.
    return offset ? `/Date(${ms}+0200)/` : `/Date(${ms})/`;
  }

  private itemOut(item: SapItem, select: string[] | undefined, strings: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const key = `CompanyCode='${item.CompanyCode}',FiscalYear='${item.FiscalYear}',AccountingDocument='${item.AccountingDocument}',AccountingDocumentItem='${item.AccountingDocumentItem}'`;
    if (this.options.version === 'v2')
      out.__metadata = {
        id: `${this.origin}${ITEMS_PATH}(${key})`,
        uri: `${this.origin}${ITEMS_PATH}(${key})`,
        type: 'API_OPLACCTGDOCITEMCUBE_SRV.A_OperationalAcctgDocItemCubeType',
      };
    for (const [name, value] of Object.entries(item)) {
      if (select && !select.includes(name)) continue;
      if (ITEM_DATES.includes(name)) out[name] = this.dateOut(value as string | null, name === 'PostingDate');
      else if (ITEM_DECIMALS.includes(name)) out[name] = strings ? value : Number(value);
      else out[name] = value;
    }
    if (!select) out.CompanyCodeName = 'Company Code 1010';
    return out;
  }

  private partnerOut(
    row: Record<string, unknown>,
    select: string[] | undefined,
    expand: boolean,
    _strings: boolean,
  ): Record<string, unknown> {
    const partner = row.__partner as SapPartner;
    const top = select?.filter((s) => !s.includes('/'));
    const out: Record<string, unknown> = {};
    if (this.options.version === 'v2')
      out.__metadata = { id: `${this.origin}${BP_PATH}('${partner.BusinessPartner}')`, type: 'API_BUSINESS_PARTNER.A_BusinessPartnerType' };
    const fields: Record<string, unknown> = {
      BusinessPartner: partner.BusinessPartner,
      Customer: partner.Customer,
      BusinessPartnerFullName: partner.BusinessPartnerFullName,
      OrganizationBPName1: partner.OrganizationBPName1,
      CorrespondenceLanguage: partner.CorrespondenceLanguage,
      CreationDate: this.dateOut(partner.CreationDate),
      LastChangeDate: this.dateOut(partner.LastChangeDate),
      LastChangeTime: this.options.version === 'v2' ? 'PT12H30M00S' : '12:30:00',
    };
    for (const [name, value] of Object.entries(fields)) if (!top || top.length === 0 || top.includes(name)) out[name] = value;
    const wrap = (list: unknown[]) => (this.options.version === 'v2' ? { results: list } : list);
    if (!expand) {
      if (this.options.version === 'v2')
        out.to_BusinessPartnerAddress = {
          __deferred: { uri: `${this.origin}${BP_PATH}('${partner.BusinessPartner}')/to_BusinessPartnerAddress` },
        };
      return out;
    }
    const a = partner.address;
    out.to_BusinessPartnerAddress = wrap(
      a
        ? [
            {
              ...(this.options.version === 'v2' ? { __metadata: { type: 'API_BUSINESS_PARTNER.A_BusinessPartnerAddressType' } } : {}),
              AddressID: '1',
              StreetName: a.StreetName,
              HouseNumber: a.HouseNumber,
              PostalCode: a.PostalCode,
              CityName: a.CityName,
              Country: a.Country,
              to_EmailAddress: wrap(a.email ? [{ EmailAddress: a.email, IsDefaultEmailAddress: true }] : []),
              to_PhoneNumber: wrap(a.phone ? [{ PhoneNumber: a.phone, IsDefaultPhoneNumber: true }] : []),
            },
          ]
        : [],
    );
    return out;
  }
}

type Row = Record<string, unknown>;
const itemKey = (row: Row) => [row.CompanyCode, row.FiscalYear, row.AccountingDocument, row.AccountingDocumentItem].map(String).join('|');

/** The filterable view of a partner (filters name top-level properties only). */
function partnerRow(partner: SapPartner): Record<string, unknown> {
  return { ...partner, __partner: partner };
}

function sapError(code: string, message: string): unknown {
  return { error: { code, message: { lang: 'en', value: message } } };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', () => resolve(text));
  });
}

// A $filter evaluator for what the pull sends: comparisons of a property with a string, boolean,
// number, datetime'…' or V4 date literal, combined with and / or / not and parentheses.
type Predicate = (row: Record<string, unknown>) => boolean;

export function compileFilter(text: string): Predicate {
  const tokens = text.match(/\(|\)|datetime(?:offset)?'[^']*'|'(?:[^']|'')*'|[^\s()]+/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const take = () => tokens[at++];
  const literal = (token: string): unknown => {
    if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
    if (token.startsWith('datetime')) return token.slice(token.indexOf("'") + 1, -1).slice(0, 10);
    if (token === 'true' || token === 'false') return token === 'true';
    if (token === 'null') return null;
    if (/^\d{4}-\d{2}-\d{2}/.test(token)) return token.slice(0, 10);
    return Number(token);
  };
  const comparison = (): Predicate => {
    if (peek() === '(') {
      take();
      const inner = or();
      take();
      return inner;
    }
    if (peek() === 'not') {
      take();
      const inner = comparison();
      return (row) => !inner(row);
    }
    const field = take();
    const op = take();
    const value = literal(take());
    return (row) => {
      const actual = row[field] ?? null;
      switch (op) {
        case 'eq':
          return actual === value;
        case 'ne':
          return actual !== value;
        case 'ge':
          return actual !== null && (actual as string) >= (value as string);
        case 'gt':
          return actual !== null && (actual as string) > (value as string);
        case 'le':
          return actual !== null && (actual as string) <= (value as string);
        case 'lt':
          return actual !== null && (actual as string) < (value as string);
        default:
          throw new Error(`unsupported operator ${op}`);
      }
    };
  };
  const and = (): Predicate => {
    let left = comparison();
    while (peek() === 'and') {
      take();
      const l = left;
      const r = comparison();
      left = (row) => l(row) && r(row);
    }
    return left;
  };
  function or(): Predicate {
    let left = and();
    while (peek() === 'or') {
      take();
      const l = left;
      const r = and();
      left = (row) => l(row) || r(row);
    }
    return left;
  }
  return or();
}

/** Generated data: n partners with customers 1000000…, items spread over them, all open. */
export function generateData(partners: number, items: number, lastChange = '2026-01-15'): { partners: SapPartner[]; items: SapItem[] } {
  const bps: SapPartner[] = [];
  for (let i = 0; i < partners; i++) {
    const customer = String(1_000_000 + i);
    bps.push({
      BusinessPartner: String(10_000_000 + i),
      Customer: customer,
      BusinessPartnerFullName: `Kunde ${customer} GmbH`,
      OrganizationBPName1: `Kunde ${customer}`,
      CorrespondenceLanguage: 'DE',
      CreationDate: '2025-01-10',
      LastChangeDate: lastChange,
      address: {
        StreetName: 'Industriestraße',
        HouseNumber: String((i % 200) + 1),
        PostalCode: String(10_000 + (i % 89_999)),
        CityName: 'Berlin',
        Country: 'DE',
        email: `ap${i}@kunde.example`,
        phone: `+49 30 ${100_000 + i}`,
      },
    });
  }
  const list: SapItem[] = [];
  for (let i = 0; i < items; i++) {
    const customer = String(1_000_000 + (i % Math.max(1, partners)));
    const day = String((i % 28) + 1).padStart(2, '0');
    list.push({
      CompanyCode: '1010',
      FiscalYear: '2026',
      AccountingDocument: String(1_800_000_000 + i),
      AccountingDocumentItem: '001',
      Customer: customer,
      CustomerName: `Kunde ${customer} GmbH`,
      FinancialAccountType: 'D',
      IsCleared: false,
      AmountInTransactionCurrency: `${100 + (i % 9000)}.${String(i % 100).padStart(2, '0')}0`,
      TransactionCurrency: 'EUR',
      DocumentDate: `2026-01-${day}`,
      PostingDate: `2026-01-${day}`,
      NetDueDate: `2026-02-${day}`,
      ClearingDate: null,
      ClearingAccountingDocument: '',
      DocumentReferenceID: `RE-${90_000_000 + i}`,
      AccountingDocumentType: 'DR',
      LastChangeDate: lastChange,
      PaymentTerms: '0001',
      DunningLevel: '0',
      DunningBlockingReason: '',
      BillingDocument: String(90_000_000 + i),
    });
  }
  return { partners: bps, items: list };
}
