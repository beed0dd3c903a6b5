import { type Metrics, MetricUnit as PowertoolsUnit } from '@aws-lambda-powertools/metrics';
import type { MetricsSink } from '../core/ports/index.js';

/** The CloudWatch namespace of every Meridian metric (the alarms and dashboard read it). */
export const METRICS_NAMESPACE = 'Meridian';

/**
 * Meridian's MetricsSink on Powertools Metrics: each record is a single metric with its own
 * dimensions, flushed as one EMF line at once (`singleMetric`), so tools, outcomes and calendars
 * never share one buffer's dimensions and nothing is lost when an invocation times out.
 */
export function toPowertools(metrics: Metrics): MetricsSink {
  return {
    record(name, unit, value, dimensions = {}) {
      const single = metrics.singleMetric();
      for (const [dimension, dimensionValue] of Object.entries(dimensions)) {
        single.addDimension(dimension, dimensionValue);
      }
      single.addMetric(name, PowertoolsUnit[unit], value);
    },
  };
}
