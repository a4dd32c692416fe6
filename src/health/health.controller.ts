// Liveness (the process answers) and readiness (the database answers) for orchestrators.
import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { SkipRateLimit } from '../http/rate-limit.guard.js';
import { Public } from '../auth/auth.decorators.js';
import { LivenessSchema, ReadinessSchema } from '../openapi/health.schema.js';
import { ApiDoc, ApiOk, ApiProblem } from '../openapi/responses.js';

@ApiTags('health')
@Public()
@SkipRateLimit()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
  ) {}

  @Get('live')
  @ApiDoc('Liveness probe', 'Answers 200 while the process runs; no credential needed.')
  @ApiOk(LivenessSchema, 'The process answers')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiDoc('Readiness probe', 'Answers 200 when the database answers within 2 seconds, else 503; no credential needed.')
  // Described below rather than by terminus: its 503 body becomes a problem document (problem filter).
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOk(ReadinessSchema, 'The database answers')
  @ApiProblem(503, 'The database did not answer within 2 seconds (code service_unavailable); the reason is logged under the request id')
  ready() {
    return this.health.check([() => this.db.pingCheck('database', { timeout: 2000 })]);
  }
}
