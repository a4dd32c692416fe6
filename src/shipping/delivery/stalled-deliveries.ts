// The watcher of deliveries that no job will finish: a job dead-lettered without its outcome recorded
// (the database was away when the last attempt ended) or lost with its process on the last attempt.
// Such a channel ends as failed with a delivery row, and the shipment is flagged like any failed one —
// so no shipment stays `pending` for ever, and the document can be shipped again (release, or
// POST …/reminders/<id>/ship) once the cause is fixed.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { DELIVERY_QUEUES } from './delivery-queue.js';
import { failureNote } from './delivery.service.js';
import { newDelivery } from '../shipments/shipment.js';
import { channelStatus, ShipmentOutcomes } from '../shipments/shipment-outcomes.js';
import { type StalledChannel, ShipmentsRepository } from '../shipments/shipments.repository.js';

const BATCH = 100;

@Injectable()
export class StalledDeliveries {
  private readonly logger = new Logger(StalledDeliveries.name);
  /** Maintenance rounds of this process (when it supervises the queue) count from here, not from before it started. */
  private readonly since = new Date();

  constructor(
    private readonly shipments: ShipmentsRepository,
    private readonly outcomes: ShipmentOutcomes,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Settles every stalled channel; returns how many it settled. */
  async sweep(): Promise<number> {
    let settled = 0;
    for (;;) {
      const stalled = await this.shipments.stalledChannels(DELIVERY_QUEUES, this.config.shipping.sweepSeconds, BATCH, {
        intervalSeconds: this.config.jobs.maintenanceIntervalSeconds,
        since: this.since,
      });
      for (const channel of stalled) if (await this.settle(channel)) settled++;
      if (stalled.length < BATCH) return settled;
    }
  }

  private settle({ companyId, shipmentId, channel, lastError }: StalledChannel): Promise<boolean> {
    return this.shipments.transaction(async (manager) => {
      const shipment = await this.shipments.lockShipment(companyId, shipmentId, manager);
      // Its last attempt may have recorded the outcome since the query: then there is nothing to do.
      if (!shipment || shipment.status !== 'pending' || channelStatus(shipment, channel) !== 'pending') return false;
      const attempt = await this.shipments.nextAttempt(companyId, shipmentId, channel, manager);
      const error = `no outcome was recorded and the delivery job has ended${lastError ? ` (last error: ${lastError})` : ' (its process may have died during the attempt)'}`;
      await this.shipments.insertDelivery(newDelivery(shipment, channel, attempt, 'permanent_failure', { error }), manager);
      await this.outcomes.channelEnded(manager, shipment, channel, 'failed', failureNote(channel, attempt, error));
      this.logger.warn({ shipment: shipmentId, channel, error }, 'stalled delivery settled as failed');
      return true;
    });
  }
}
