// The durable job queue, available to every feature module.
import { Global, Module } from '@nestjs/common';
import { JobQueue } from './job-queue.js';

@Global()
@Module({ providers: [JobQueue], exports: [JobQueue] })
export class JobsModule {}
