// Response schemas of the health probes (src/health/health.controller.ts): liveness answers while
// the process runs; readiness is the @nestjs/terminus result of the database ping.
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EnumProperty } from './properties.js';

@ApiSchema({ name: 'Liveness' })
export class LivenessSchema {
  @EnumProperty(['ok']) readonly status!: string;
}

@ApiSchema({ name: 'HealthIndicator' })
export class HealthIndicatorSchema {
  @EnumProperty(['up']) readonly status!: string;
}

@ApiSchema({ name: 'HealthIndicators' })
export class HealthIndicatorsSchema {
  @ApiProperty({ type: HealthIndicatorSchema }) readonly database!: HealthIndicatorSchema;
}

@ApiSchema({ name: 'Readiness', description: 'The database answered a ping within 2 seconds' })
export class ReadinessSchema {
  @EnumProperty(['ok']) readonly status!: string;
  @ApiProperty({ type: HealthIndicatorsSchema }) readonly info!: HealthIndicatorsSchema;
  @ApiProperty({ type: 'object', additionalProperties: false, description: 'Always empty when ready' }) readonly error!: Record<string, never>;
  @ApiProperty({ type: HealthIndicatorsSchema }) readonly details!: HealthIndicatorsSchema;
}
