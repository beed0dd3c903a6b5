/** The units Meridian's metrics use (CloudWatch's names). */
export type MetricUnit = 'Count' | 'Milliseconds' | 'Seconds' | 'Bytes';

/**
 * Where operational metrics go: CloudWatch through Powertools' embedded metric format on Lambda,
 * nowhere in the embedded runtime (a laptop has no one to alarm). Each record is one value of one
 * metric under its own dimensions, written as it happens, so a metric never waits for the end of
 * an invocation that may time out.
 */
export interface MetricsSink {
  record(name: string, unit: MetricUnit, value: number, dimensions?: Readonly<Record<string, string>>): void;
}

/** The sink of a runtime that publishes no metrics. */
export const noMetrics: MetricsSink = { record: () => undefined };
