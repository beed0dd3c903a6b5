/** The units Meridian's metrics use (CloudWatch's names). */
export type MetricUnit = 'Count' | 'Milliseconds' | 'Seconds' | 'Bytes';

export interface MetricValue {
  name: string;
  unit: MetricUnit;
  value: number;
}

/**
 * Where operational metrics go: CloudWatch through Powertools' embedded metric format on Lambda,
 * nowhere in the embedded runtime (a laptop has no one to alarm). Each publish is one set of
 * values under one set of dimensions, written as it happens, so a metric never waits for the end
 * of an invocation that may time out. Dimension values must come from closed sets (tool names,
 * error codes): never caller text or ids, which would be unbounded and could be personal data.
 */
export interface MetricsSink {
  publish(dimensions: Readonly<Record<string, string>>, values: readonly MetricValue[]): void;
}

/** The sink of a runtime that publishes no metrics. */
export const noMetrics: MetricsSink = { publish: () => undefined };
