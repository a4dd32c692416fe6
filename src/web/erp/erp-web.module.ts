// The ERP pages of the web app: connections (/integrations/erp …) with test, pull now and live pull runs,
// and the failed pulls among the exceptions (/exceptions/erp-pulls). Same services as the API.
import { Module } from '@nestjs/common';
import { ErpPullModule } from '../../erp-pull/erp-pull.module.js';
import { ExceptionPages } from '../exceptions/exception-pages.js';
import { WebModule } from '../web.module.js';
import { ConnectionFormController } from './connection-form.controller.js';
import { ConnectionsController } from './connections.controller.js';
import { FailedPullsController } from './failed-pulls.controller.js';
import { FailedPullsRepository } from './failed-pulls.repository.js';
import { PullsController } from './pulls.controller.js';

@Module({
  imports: [WebModule, ErpPullModule],
  // The form's controller first: GET /integrations/erp/new is not a connection's page.
  controllers: [ConnectionFormController, ConnectionsController, PullsController, FailedPullsController],
  providers: [ExceptionPages, FailedPullsRepository],
})
export class ErpWebModule {}
