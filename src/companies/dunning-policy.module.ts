// The dunning policy on its own, so invoices (waiving rests) and the dunning engine can both read it.
import { Module } from '@nestjs/common';
import { DunningPolicyRepository } from './dunning-policy.repository.js';

@Module({ providers: [DunningPolicyRepository], exports: [DunningPolicyRepository] })
export class DunningPolicyModule {}
