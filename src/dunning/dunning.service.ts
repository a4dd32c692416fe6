// The dunning API's rules: the policy (defaults merged with what the company set), the business date
// (today in the company's time zone; another date only outside production), runs, proposal, approvals.
import { Inject, Injectable } from '@nestjs/common';
import type { CompanyContext } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { todayIn } from '../common/calendar-date.js';
import { AppError, validationFailed } from '../common/errors.js';
import { parsePublicId } from '../common/ids.js';
import type { PageRequest } from '../common/pagination.js';
import { DEFAULT_POLICY, type DunningLevel, type DunningPolicy } from '../companies/dunning-policy.js';
import { DunningPolicyRepository } from '../companies/dunning-policy.repository.js';
import { DunningRunService, type RunResult } from './dunning-run.service.js';
import { DunningRunsRepository, type RunRecord } from './dunning-runs.repository.js';
import type { DunningLevelDto, DunningPolicyDto } from './dto/dunning-policy.dto.js';

function level(dto: DunningLevelDto | undefined, base: DunningLevel): DunningLevel {
  return {
    waitDays: dto?.wait_days ?? base.waitDays,
    fee: dto?.fee?.toFixed(2) ?? base.fee,
    minimumOpen: dto?.minimum_open_amount?.toFixed(2) ?? base.minimumOpen,
    paymentTermDays: dto?.payment_term_days ?? base.paymentTermDays,
    text: dto?.text ?? base.text,
  };
}

@Injectable()
export class DunningService {
  constructor(
    private readonly policies: DunningPolicyRepository,
    private readonly runs: DunningRunsRepository,
    private readonly runner: DunningRunService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  policy(company: CompanyContext): Promise<DunningPolicy> {
    return this.policies.get(company.id);
  }

  async replacePolicy(company: CompanyContext, dto: DunningPolicyDto): Promise<DunningPolicy> {
    const base = DEFAULT_POLICY;
    const policy: DunningPolicy = {
      levels: [level(dto.levels?.[0], base.levels[0]), level(dto.levels?.[1], base.levels[1]), level(dto.levels?.[2], base.levels[2])],
      graceDays: dto.grace_days ?? base.graceDays,
      collectionDays: dto.collection_days ?? base.collectionDays,
      autoShip: dto.auto_ship ?? base.autoShip,
      runAt: dto.run_at ?? base.runAt,
      waiveRemainder: dto.waive_remainder ?? base.waiveRemainder,
      defaultInterest: dto.default_interest ?? base.defaultInterest,
      defaultStarts: dto.default_starts ?? base.defaultStarts,
      businessFlatFee: dto.business_flat_fee ?? base.businessFlatFee,
      sendWhenErpUnreachable: dto.send_when_erp_unreachable ?? base.sendWhenErpUnreachable,
      proposalValidDays: dto.proposal_valid_days ?? base.proposalValidDays,
    };
    await this.policies.save(company.id, policy);
    return policy;
  }

  async startRun(company: CompanyContext, date?: string | null, trigger: 'api' | 'web' = 'api'): Promise<RunResult> {
    const run = await this.runner.run(company.id, this.businessDate(company, date), trigger);
    if (!run) throw new Error('a run on demand is never skipped');
    return run;
  }

  proposal(company: CompanyContext, date?: string | null) {
    const businessDate = this.businessDate(company, date);
    return this.runner.propose(company.id, businessDate).then((outcome) => ({ date: businessDate, outcome }));
  }

  async run(company: CompanyContext, publicId: string): Promise<RunRecord> {
    const id = parsePublicId('run', publicId);
    const run = id ? await this.runs.find(company.id, id) : undefined;
    if (!run) throw new AppError('dunning_run.not_found', `Dunning run ${publicId} was not found`);
    return run;
  }

  listRuns(company: CompanyContext, page: PageRequest) {
    return this.runs.list(company.id, page);
  }

  /** Today in the company's time zone; an explicit date lets a user watch a 90-day cycle in seconds, outside production. */
  businessDate(company: CompanyContext, date?: string | null): string {
    if (!date) return todayIn(company.timeZone);
    if (this.config.env === 'production') {
      throw validationFailed([{ field: 'date', message: 'date is accepted in development and test only; production runs for today' }]);
    }
    return date;
  }
}
