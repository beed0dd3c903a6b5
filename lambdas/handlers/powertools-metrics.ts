import { Metrics, MetricUnit as PowertoolsUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE } from '../core/metric-names.js';
import type { MetricsSink } from '../core/ports/index.js';
import { traceLogKeys } from '../mcp/trace/trace-scope.js';

/**
 * Meridian's MetricsSink on Powertools Metrics: each publish is one EMF line (its values under its
 * dimensions, plus Powertools' `service`), flushed at once. Publishing is synchronous, so two
 * requests in flight never mix their dimensions in the shared buffer. A line published while
 * serving a request that sent a trace context carries it as metadata (not a dimension: an
 * unbounded value would make a metric per trace), so a trace id finds its calls in Logs Insights.
 */
export function powertoolsMetrics(serviceName: string): MetricsSink {
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName });
  return {
    publish(dimensions, values) {
      metrics.addDimensions({ ...dimensions });
      for (const [key, value] of Object.entries(traceLogKeys())) metrics.addMetadata(key, value);
      for (const { name, unit, value } of values) metrics.addMetric(name, PowertoolsUnit[unit], value);
      metrics.publishStoredMetrics();
    },
  };
}
