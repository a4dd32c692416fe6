// SQL for contacts. Every method takes the company id: no query reaches another company's rows.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../common/errors.js';
import { toPublicId } from '../common/ids.js';
import { isStorableText } from '../common/text.js';
import { entityColumns } from '../database/sql/entity-columns.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';
import { uniqueWrite } from '../database/sql/unique-write.js';
import { Contact } from './contact.entity.js';

const FIND_BY_EXTERNAL_ID = statement<Contact>(
  'contacts.find_by_external_id',
  () => `SELECT ${entityColumns(Contact)} FROM contacts WHERE company_id = $1 AND lower(external_id) = lower($2)`,
);

export type ContactValues = Omit<Contact, 'companyId' | 'id' | 'createdAt' | 'updatedAt'>;

@Injectable()
export class ContactsRepository {
  constructor(private readonly sql: Sql) {}

  async insert(companyId: string, id: string, values: ContactValues, manager = this.sql.manager): Promise<Contact> {
    const now = new Date();
    const contact = manager.create(Contact, { ...values, companyId, id, createdAt: now, updatedAt: now });
    await this.guardExternalId(companyId, values.externalId, manager, () => manager.insert(Contact, contact));
    return contact;
  }

  async update(contact: Contact, changes: Partial<ContactValues>, manager = this.sql.manager): Promise<Contact> {
    const updated: Contact = { ...contact, ...changes, updatedAt: new Date() };
    await this.guardExternalId(contact.companyId, changes.externalId, manager, () =>
      manager.update(Contact, { companyId: contact.companyId, id: contact.id }, { ...changes, updatedAt: updated.updatedAt }),
    );
    return updated;
  }

  findById(companyId: string, id: string, manager = this.sql.manager): Promise<Contact | null> {
    return manager.findOneBy(Contact, { companyId, id });
  }

  async findByExternalId(companyId: string, externalId: string, manager = this.sql.manager): Promise<Contact | null> {
    // No stored external_id holds a NUL (Postgres text cannot), and Postgres would refuse it as a parameter.
    if (!isStorableText(externalId)) return null;
    return (await this.sql.first(FIND_BY_EXTERNAL_ID, [companyId, externalId], manager)) ?? null;
  }

  /** Runs the write; a taken external_id (case-insensitive) becomes a 409 naming the existing record. */
  private async guardExternalId(companyId: string, externalId: string | null | undefined, manager: EntityManager, write: () => Promise<unknown>) {
    if (!externalId) return void (await write());
    // The lookup runs on the writer's connection (uniqueWrite): a second one might never come.
    await uniqueWrite(manager, 'contacts_external_id_key', write, async (same) => {
      const existing = await this.findByExternalId(companyId, externalId, same);
      return new AppError(
        'contact.external_id_taken',
        `A contact with external_id "${externalId}" exists already`,
        [{ field: 'external_id', message: 'external_id is already taken' }],
        { existing_id: existing ? toPublicId('con', existing.id) : undefined },
      );
    });
  }
}
