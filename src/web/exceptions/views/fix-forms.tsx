// The small forms of a shipment's row: correct the contact's e-mail address (or name a contact with
// one, when the customer has none) or the customer's postal address, then ship the document again.
import { toPublicId } from '../../../common/ids.js';
import type { PageContext } from '../../views/layout.js';
import { type AttentionRow, FIXES } from '../shipment-rows.js';

export interface FixState {
  document: string;
  kind: 'email' | 'address';
  values: Record<string, string>;
  /** The fields (wire names) the validation refused. */
  errors: string[];
}

const ADDRESS_FIELDS = [
  ['address_line1', 'addressLine1', true],
  ['address_line2', 'addressLine2', false],
  ['address_line3', 'addressLine3', true],
  ['address_line4', 'addressLine4', false],
  ['zip', 'zip', true],
  ['city', 'city', true],
  ['country_code', 'countryCode', true],
] as const;

export function FixForms({ page, row, label, fix }: { page: PageContext; row: AttentionRow; label: string; fix?: FixState }) {
  const { t } = page.lang;
  const parties = row.parties;
  if (!parties) return <></>;
  // A form sent back with errors is shown whatever the row's reason (the user chose to correct that).
  const fixes = fix && !FIXES[row.group].includes(fix.kind) ? [...FIXES[row.group], fix.kind] : FIXES[row.group];
  if (fixes.length === 0)
    return (
      <p class="sub" safe>
        {t('exceptions.shipments.fixMode')}
      </p>
    );
  const id = toPublicId('shp', row.shipment.id);
  const valueOf = (name: string, stored: string | null) => (fix ? (fix.values[name] ?? '') : (stored ?? ''));
  return (
    <>
      {fixes.includes('email') ? (
        <details open={fix?.kind === 'email'}>
          <summary safe>{t('exceptions.shipments.fixEmail')}</summary>
          <form method="post" action="/exceptions/shipments/fix" class="fix" aria-label={`${t('exceptions.shipments.fixEmail')}: ${label}`}>
            <input type="hidden" name="_csrf" value={page.csrf} />
            <input type="hidden" name="document" value={row.document} />
            <input type="hidden" name="kind" value="email" />
            {parties.contactId ? (
              <input type="hidden" name="contact" value={toPublicId('con', parties.contactId)} />
            ) : (
              <>
                <input type="hidden" name="customer" value={toPublicId('cus', parties.customerId)} />
                <Field
                  page={page}
                  id={`${id}-name`}
                  name="name"
                  label={t('exceptions.shipments.contactName')}
                  value={valueOf('name', null)}
                  fix={fix}
                  required
                />
              </>
            )}
            <Field
              page={page}
              id={`${id}-email`}
              name="email"
              type="email"
              label={parties.contactName ? `${t('exceptions.shipments.email')} (${parties.contactName})` : t('exceptions.shipments.email')}
              value={valueOf('email', parties.contactEmail)}
              fix={fix?.kind === 'email' ? fix : undefined}
              required
            />
            <button type="submit" safe>
              {t('exceptions.shipments.saveAndRetry')}
            </button>
          </form>
        </details>
      ) : (
        ''
      )}
      {fixes.includes('address') ? (
        <details open={fix?.kind === 'address'}>
          <summary safe>{t('exceptions.shipments.fixAddress')}</summary>
          <form
            method="post"
            action="/exceptions/shipments/fix"
            class="fix"
            aria-label={`${t('exceptions.shipments.fixAddress')}: ${label}`}
          >
            <input type="hidden" name="_csrf" value={page.csrf} />
            <input type="hidden" name="document" value={row.document} />
            <input type="hidden" name="kind" value="address" />
            <input type="hidden" name="customer" value={toPublicId('cus', parties.customerId)} />
            {ADDRESS_FIELDS.map(([name, key, required]) => (
              <Field
                page={page}
                id={`${id}-${name}`}
                name={name}
                label={t(`exceptions.shipments.${key}`)}
                value={valueOf(name, parties[key])}
                fix={fix?.kind === 'address' ? fix : undefined}
                required={required}
              />
            ))}
            <button type="submit" safe>
              {t('exceptions.shipments.saveAndRetry')}
            </button>
          </form>
        </details>
      ) : (
        ''
      )}
    </>
  );
}

function Field(props: {
  page: PageContext;
  id: string;
  name: string;
  label: string;
  value: string;
  fix?: FixState;
  required?: boolean;
  type?: string;
}) {
  const { t } = props.page.lang;
  const invalid = props.fix?.errors.includes(props.name) ?? false;
  return (
    <div class="field">
      <label for={props.id} safe>
        {props.label}
      </label>
      <input
        id={props.id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        required={props.required}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? `${props.id}-error` : undefined}
      />
      {invalid ? (
        <p class="field-error" id={`${props.id}-error`} safe>
          {t(`exceptions.shipments.field.${props.name}`)}
        </p>
      ) : (
        ''
      )}
    </div>
  );
}
