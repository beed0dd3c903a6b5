import { Metrics, MetricUnit as PowertoolsUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE } from '../core/metric-names.js';
import type { MetricsSink } from '../core/ports/index.js';

/**
 * Meridian's MetricsSink on Powertools Metrics: each publish is one EMF line (its values under its
 * dimensions, plus Powertools' `service`), flushed at once. Publishing is synchronous, so two
 * requests in flight never mix their dimensions in the shared buffer.
 */
export function powertoolsMetrics(serviceName: string): MetricsSink {
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName });
  return {
    publish(dimensions, values) {
      metrics.addDimensions({ ...dimensions });
      for (const { name, unit, value } of values) metrics.addMetric(name, PowertoolsUnit[unit], value);
      metrics.publishStoredMetrics();
    },
  };
}
