// Rows of the push audit log: when, which document, the step and its attempt, the error, who caused it.
import { toPublicId } from '../../../common/ids.js';
import type { AuditEntry } from '../../../push/push-document.js';
import type { PageContext } from '../../views/layout.js';

const CREDENTIALS = new Set(['apikey', 'bearer', 'token', 'user']);

export function AuditTable({ page, entries, withDocument }: { page: PageContext; entries: AuditEntry[]; withDocument: boolean }) {
  const { t, dateTime } = page.lang;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col" safe>
            {t('push.document.when')}
          </th>
          {withDocument ? (
            <th scope="col" safe>
              {t('push.documents.externalId')}
            </th>
          ) : (
            ''
          )}
          <th scope="col" safe>
            {t('push.document.step')}
          </th>
          <th scope="col" class="num" safe>
            {t('push.document.attempt')}
          </th>
          <th scope="col" safe>
            {t('push.document.error')}
          </th>
          <th scope="col" safe>
            {t('push.document.by')}
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr data-audit={entry.id} data-step={entry.step}>
            <td safe>{dateTime(entry.createdAt)}</td>
            {withDocument ? (
              <td>
                <a href={`/push/documents/${toPublicId('doc', entry.documentId)}`} safe>
                  {`${t(`push.type.${entry.documentType}`)} ${entry.externalId}`}
                </a>
              </td>
            ) : (
              ''
            )}
            <td safe>{t(`push.step.${entry.step}`)}</td>
            <td class="num" safe>
              {entry.attempt === null ? '' : String(entry.attempt)}
            </td>
            <td safe>{entry.error ?? (typeof entry.details?.reason === 'string' ? entry.details.reason : '')}</td>
            <td safe>
              {t(`push.credential.${entry.credentialType && CREDENTIALS.has(entry.credentialType) ? entry.credentialType : 'none'}`)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
