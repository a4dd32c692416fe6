import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Watermarks } from '../connections/erp-connection.entity.js';

export type PullTrigger = 'manual' | 'schedule' | 'resume';
export type PullMode = 'incremental' | 'full';
export type PullStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface RecordCounts {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  skipped: number;
}

export interface RunCounts {
  customers?: RecordCounts;
  receivables?: RecordCounts;
  /** From cleared items: payments recorded, invoices settled (paid), invoices reopened (clearing reset). */
  clearings?: { payments: number; settled: number; reopened: number };
  /** A reconciling run: invoices open here but not in the ERP's open list, of them found cleared, and not found at all. */
  reconciliation?: { missing: number; cleared: number; not_found: number };
}

export interface RunError {
  entity: string;
  key: string | null;
  message: string;
}

@Entity('erp_pull_runs')
export class PullRun {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'connection_id' }) connectionId!: string;
  @Column('text') trigger!: PullTrigger;
  @Column('text') mode!: PullMode;
  @Column('text') status!: PullStatus;
  @Column('uuid', { name: 'resumed_from', nullable: true }) resumedFrom!: string | null;
  @Column('timestamptz', { name: 'queued_at' }) queuedAt!: Date;
  @Column('timestamptz', { name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column('timestamptz', { name: 'heartbeat_at', nullable: true }) heartbeatAt!: Date | null;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column('integer') pages!: number;
  @Column('integer') requests!: number;
  @Column('integer') created!: number;
  @Column('integer') updated!: number;
  @Column('integer') unchanged!: number;
  @Column('integer') failed!: number;
  @Column('integer') skipped!: number;
  @Column('jsonb') counts!: RunCounts;
  @Column('jsonb', { name: 'watermark_from' }) watermarkFrom!: Watermarks;
  @Column('jsonb', { name: 'watermark_to', nullable: true }) watermarkTo!: Watermarks | null;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('jsonb') errors!: RunError[];
}
