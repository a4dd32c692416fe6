// Which ERP entity sets are read and which of their properties become which of our fields. The SAP
// defaults (business partner API, operational accounting document item cube) are built in; a
// connection overrides any part, for ERPs that expose their own services behind a gateway.

export const PULL_ENTITIES = ['customers', 'receivables'] as const;
export type PullEntity = (typeof PULL_ENTITIES)[number];

export interface CustomerMapping {
  entity_set: string;
  /** Key properties: the stable $orderby that $skip paging needs. */
  key: string[];
  /** Always part of $filter (only business partners that are customers). */
  filter: string | null;
  /** Incremental pulls read records changed or created since the watermark − 1 day. */
  change_date: string | null;
  creation_date: string | null;
  fields: {
    external_id: string;
    /** The first non-empty one is the name. */
    name: string[];
    street: string | null;
    house_number: string | null;
    zip: string | null;
    city: string | null;
    country: string | null;
    email: string | null;
    phone: string | null;
    additional_number: string | null;
  };
}

export interface ReceivableMapping {
  entity_set: string;
  key: string[];
  filter: string | null;
  /** A full pull reads only these (open items). */
  open_filter: string;
  /** The clearing query reads these, cleared since the clearing watermark − 1 day. */
  cleared_filter: string;
  /**
   * Without a change date (or a clearing date) there is nothing to be incremental by: every pull reads
   * all open items, compares them with what is stored and reconciles the invoices that left the list.
   */
  change_date: string | null;
  clearing_date: string | null;
  fields: {
    /** Joined with "-" into the invoice's external_id. */
    external_id: string[];
    customer: string;
    amount: string;
    currency: string | null;
    /** The first non-empty date is the invoice date. */
    invoice_date: string[];
    due_date: string | null;
    /** The first non-empty one is the invoice number. */
    invoice_number: string[];
    additional_number: string | null;
    is_cleared: string;
    clearing_document: string | null;
    dunning_block: string | null;
  };
}

export interface ErpMapping {
  customers: CustomerMapping;
  receivables: ReceivableMapping;
}

export type ServicePaths = Record<PullEntity, string>;

export const SAP_SERVICE_PATHS: ServicePaths = {
  customers: '/sap/opu/odata/sap/API_BUSINESS_PARTNER/',
  receivables: '/sap/opu/odata/sap/API_OPLACCTGDOCITEMCUBE_SRV/',
};

const ADDRESS = 'to_BusinessPartnerAddress';

export const SAP_MAPPING: ErpMapping = {
  customers: {
    entity_set: 'A_BusinessPartner',
    key: ['BusinessPartner'],
    filter: "Customer ne ''",
    change_date: 'LastChangeDate',
    // A partner nobody changed since its creation has no LastChangeDate.
    creation_date: 'CreationDate',
    fields: {
      external_id: 'Customer',
      name: ['BusinessPartnerFullName', 'OrganizationBPName1'],
      street: `${ADDRESS}/StreetName`,
      house_number: `${ADDRESS}/HouseNumber`,
      zip: `${ADDRESS}/PostalCode`,
      city: `${ADDRESS}/CityName`,
      country: `${ADDRESS}/Country`,
      email: `${ADDRESS}/to_EmailAddress/EmailAddress`,
      phone: `${ADDRESS}/to_PhoneNumber/PhoneNumber`,
      additional_number: 'BusinessPartner',
    },
  },
  receivables: {
    entity_set: 'A_OperationalAcctgDocItemCube',
    key: ['CompanyCode', 'FiscalYear', 'AccountingDocument', 'AccountingDocumentItem'],
    filter: "FinancialAccountType eq 'D'",
    open_filter: 'IsCleared eq false',
    cleared_filter: 'IsCleared eq true',
    change_date: 'LastChangeDate',
    clearing_date: 'ClearingDate',
    fields: {
      external_id: ['CompanyCode', 'FiscalYear', 'AccountingDocument', 'AccountingDocumentItem'],
      customer: 'Customer',
      // Already signed: DebitCreditCode is not applied again.
      amount: 'AmountInTransactionCurrency',
      currency: 'TransactionCurrency',
      invoice_date: ['DocumentDate', 'PostingDate'],
      due_date: 'NetDueDate',
      invoice_number: ['DocumentReferenceID', 'AccountingDocument'],
      additional_number: 'BillingDocument',
      is_cleared: 'IsCleared',
      clearing_document: 'ClearingAccountingDocument',
      dunning_block: 'DunningBlockingReason',
    },
  },
};

export type MappingOverrides = {
  [E in PullEntity]?: Partial<Omit<ErpMapping[E], 'fields'>> & { fields?: Partial<ErpMapping[E]['fields']> };
};

/** The defaults with a connection's overrides laid over them (an override replaces a whole value). */
export function effectiveMapping(overrides: MappingOverrides | null | undefined): ErpMapping {
  const merge = <E extends PullEntity>(entity: E): ErpMapping[E] => {
    const own = (overrides?.[entity] ?? {}) as MappingOverrides[E] & object;
    const base = SAP_MAPPING[entity];
    return { ...base, ...own, fields: { ...base.fields, ...(own.fields ?? {}) } } as ErpMapping[E];
  };
  return { customers: merge('customers'), receivables: merge('receivables') };
}

function paths(values: Array<string | string[] | null>): string[] {
  return [...new Set(values.flat().filter((v): v is string => Boolean(v)))];
}

/** $select of each entity: exactly the properties the mapping reads (the item cube has ~270). */
export function selectedProperties(mapping: ErpMapping): Record<PullEntity, string[]> {
  const c = mapping.customers;
  const r = mapping.receivables;
  return {
    customers: paths([c.key, c.change_date, c.creation_date, ...Object.values(c.fields)]),
    receivables: paths([r.key, r.change_date, r.clearing_date, ...Object.values(r.fields)]),
  };
}
