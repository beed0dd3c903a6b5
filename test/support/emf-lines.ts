export interface EmfLine {
  _aws: {
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [field: string]: unknown;
}

/** The embedded-metric-format lines written to stdout (as Lambda's log stream receives them) until restored. */
export function captureEmfLines(): { lines: EmfLine[]; restore(): void } {
  const original = process.stdout.write;
  const lines: EmfLine[] = [];
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    for (const text of String(chunk).split('\n')) {
      if (text.includes('"_aws"')) lines.push(JSON.parse(text) as EmfLine);
    }
    return (original as (...args: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
  }) as typeof process.stdout.write;
  return { lines, restore: () => (process.stdout.write = original) };
}

/** The lines that carry metric `name`. */
export function linesWith(lines: readonly EmfLine[], name: string): EmfLine[] {
  return lines.filter((line) =>
    line._aws.CloudWatchMetrics[0]?.Metrics.some((metric) => metric.Name === name),
  );
}
