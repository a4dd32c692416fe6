// Contacts of customers: the spec's Contact resource.
import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { ContactsController } from './contacts.controller.js';
import { ContactsRepository } from './contacts.repository.js';
import { ContactsService } from './contacts.service.js';

@Module({
  imports: [CustomersModule],
  controllers: [ContactsController],
  providers: [ContactsRepository, ContactsService],
  exports: [ContactsRepository, ContactsService],
})
export class ContactsModule {}
