// The base rate table, the banner of a missing current half-year (with the CLI command), the form to add
// one (owners only; a member sees the table).
import type { BaseRate } from '../../../dunning/base-rates.repository.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { FieldErrors } from '../dunning-pages.js';
import { describedBy, DunningTabs, FieldError, Flash } from './tabs.js';

export interface BaseRatesProps {
  page: PageContext;
  rates: BaseRate[];
  /** The first day of the current half-year when its rate is missing. */
  missing: string | undefined;
  values: { valid_from: string; rate: string };
  errors: FieldErrors;
  notice?: string;
  /** A member's view: the table without the form (only owners add a rate). */
  readOnly?: boolean;
}

export function BaseRatesPage({ page, rates, missing, values, errors, notice, readOnly }: BaseRatesProps) {
  const { t, date, locale } = page.lang;
  const percent = new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return (
    <Layout page={page} title={t('dunning.baseRates.title')}>
      <DunningTabs page={page} current="/dunning/base-rates" />
      <Flash notice={notice} />
      {missing ? (
        <div class="error" role="alert" data-banner="missing-base-rate">
          <p safe>{t('dunning.baseRates.missing', { date: date(missing) })}</p>
          <p safe>{t('dunning.baseRates.cli')}</p>
          <pre>
            <code safe>{`npm run cli -- base-rate:set --from ${missing} --rate <percent, e.g. 1.27>`}</code>
          </pre>
        </div>
      ) : (
        ''
      )}
      <section class="card" aria-labelledby="rates-h">
        <h2 id="rates-h" safe>
          {t('dunning.baseRates.table')}
        </h2>
        {rates.length === 0 ? (
          <p safe>{t('dunning.baseRates.none')}</p>
        ) : (
          <table data-table="base-rates">
            <thead>
              <tr>
                <th scope="col" safe>
                  {t('dunning.baseRates.validFrom')}
                </th>
                <th scope="col" class="num" safe>
                  {t('dunning.baseRates.rate')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rates.map((rate) => (
                <tr data-valid-from={rate.validFrom}>
                  <td safe>{date(rate.validFrom)}</td>
                  <td class="num" safe>
                    {percent.format(Number(rate.rate))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {readOnly ? (
        <p class="sub" data-read-only="true" safe>
          {t('account.roles.ownersChange')}
        </p>
      ) : (
        <AddRateForm page={page} values={values} errors={errors} />
      )}
    </Layout>
  );
}

function AddRateForm({ page, values, errors }: Pick<BaseRatesProps, 'page' | 'values' | 'errors'>) {
  const { t } = page.lang;
  return (
    <form class="dunning card" method="post" action="/dunning/base-rates" aria-labelledby="add-h" novalidate>
      <h2 id="add-h" safe>
        {t('dunning.baseRates.add')}
      </h2>
      <p class="sub" safe>
        {t('dunning.baseRates.addHint')}
      </p>
      <input type="hidden" name="_csrf" value={page.csrf} />
      <div class="inline">
        <div>
          <label for="valid_from" safe>
            {t('dunning.baseRates.validFrom')}
          </label>
          <input
            id="valid_from"
            name="valid_from"
            type="date"
            value={values.valid_from}
            aria-invalid={errors.valid_from ? 'true' : undefined}
            aria-describedby={describedBy('valid_from', errors.valid_from, false)}
          />
          <FieldError id="valid_from" message={errors.valid_from} />
        </div>
        <div>
          <label for="rate" safe>
            {t('dunning.baseRates.rate')}
          </label>
          <input
            id="rate"
            name="rate"
            type="text"
            inputmode="decimal"
            value={values.rate}
            aria-invalid={errors.rate ? 'true' : undefined}
            aria-describedby={describedBy('rate', errors.rate, false)}
          />
          <FieldError id="rate" message={errors.rate} />
        </div>
        <div>
          <button type="submit" safe>
            {t('dunning.baseRates.submit')}
          </button>
        </div>
      </div>
    </form>
  );
}
