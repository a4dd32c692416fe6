// Announcements of files before they are stored, and the hourly sweep of those whose write never
// committed. Apart from DocumentsModule, which needs no database.
import { Global, Module } from '@nestjs/common';
import { PendingDocumentsRepository } from './pending-documents.repository.js';
import { PendingDocumentsSweeper } from './pending-documents.sweeper.js';

@Global()
@Module({ providers: [PendingDocumentsRepository, PendingDocumentsSweeper], exports: [PendingDocumentsRepository] })
export class PendingDocumentsModule {}
