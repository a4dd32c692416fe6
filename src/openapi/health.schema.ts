// Response schemas of the health probes (src/health/health.controller.ts): liveness answers while
// the process runs; readiness is the @nestjs/terminus result of the database ping.
import { enumProperty, integerProperty } from './properties.js';
import { component } from './schema.js';

export const LivenessSchema = component('Liveness', { status: enumProperty(['ok']) });

export const HealthIndicatorSchema = component('HealthIndicator', {
  status: enumProperty(['up']),
  responseTime: integerProperty({ minimum: 0, description: 'Milliseconds the ping took (terminus’ name)' }),
});

export const HealthIndicatorsSchema = component('HealthIndicators', { database: HealthIndicatorSchema });

export const ReadinessSchema = component(
  'Readiness',
  {
    status: enumProperty(['ok']),
    info: HealthIndicatorsSchema,
    error: { type: 'object', additionalProperties: false, description: 'Always empty when ready' },
    details: HealthIndicatorsSchema,
  },
  { description: 'The database answered a ping within 2 seconds' },
);
