import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DataStack } from '../../lib/stacks/data-stack.js';
import { ServiceStack, type ServiceStackProps } from '../../lib/stacks/service-stack.js';

const CDK_JSON = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
  context: Record<string, unknown>;
};

/**
 * An app with the same feature flags as `cdk synth` (from cdk.json), but with asset bundling
 * skipped: an empty `aws:cdk:bundling-stacks` makes CDK skip every asset bundling step, which
 * keeps these tests fast. `npm run synth` is the path that really bundles.
 */
export function testApp(): App {
  return new App({ context: { ...CDK_JSON.context, 'aws:cdk:bundling-stacks': [] } });
}

export interface MeridianStacks {
  readonly data: DataStack;
  readonly service: ServiceStack;
}

/**
 * The two stacks wired as bin/app.ts wires them: the service gets the data stack's table and key
 * as objects, so the service template reads them through cross-stack references.
 */
export function meridianStacks(app: App, serviceProps: Partial<ServiceStackProps> = {}): MeridianStacks {
  const data = new DataStack(app, 'Data');
  const service = new ServiceStack(app, 'Service', {
    table: data.table,
    dataKey: data.key,
    memoryBucket: data.memoryBucket,
    auditExportBucket: data.auditExportBucket,
    ...serviceProps,
  });
  return { data, service };
}

/** The parts of the cloud assembly's validation-report.json the nag tests read. */
export interface ValidationReport {
  pluginReports: {
    pluginName: string;
    conclusion: 'success' | 'failure';
    violations: { ruleName: string; severity: string; violatingConstructs: { constructPath: string }[] }[];
    suppressedViolations?: {
      ruleName: string;
      acknowledgedId: string;
      reason: string;
      violatingConstructs: { constructPath: string }[];
    }[];
  }[];
}

/**
 * Synthesizes an app with cdk-nag registered the way bin/app.ts registers it. cdk-nag 3 is a
 * policy-validation plugin: its findings land in validation-report.json, and under vitest
 * (NODE_ENV=test) an unacknowledged error makes `synth()` throw with the report as message.
 */
export function synthWithNag(addStacks: (app: App) => void): ValidationReport {
  const app = testApp();
  addStacks(app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  const assembly = app.synth();
  return JSON.parse(
    readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8'),
  ) as ValidationReport;
}

/**
 * Every finding cdk-nag leaves unacknowledged in the app, whether or not they fail the synth.
 * (Whether warnings alone fail it depends on whether anything else was acknowledged, so tests
 * that expect a warning read the report rather than expect a throw.)
 */
export function unacknowledgedFindings(addStacks: (app: App) => void): string[] {
  try {
    return unacknowledged(synthWithNag(addStacks));
  } catch (error) {
    const reportPath = /A copy of this report can be found in: (\S+validation-report\.json)/.exec(
      String(error),
    );
    if (!reportPath) throw error;
    return unacknowledged(JSON.parse(readFileSync(reportPath[1]!, 'utf8')) as ValidationReport);
  }
}

/** Every finding left unacknowledged, as "plugin severity rule at path". */
export function unacknowledged(report: ValidationReport): string[] {
  return report.pluginReports.flatMap((plugin) =>
    plugin.violations.flatMap((v) =>
      v.violatingConstructs.map(
        (c) => `${plugin.pluginName} ${v.severity} ${v.ruleName} at ${c.constructPath}`,
      ),
    ),
  );
}

/** The AwsSolutions acknowledgements of findings on constructs under `pathPrefix`. */
export function acknowledgements(
  report: ValidationReport,
  pathPrefix: string,
): { acknowledgedId: string; reason: string }[] {
  const nag = report.pluginReports.find((p) => p.pluginName === 'AwsSolutions');
  return (nag?.suppressedViolations ?? []).filter((s) =>
    s.violatingConstructs.some((c) => c.constructPath.startsWith(pathPrefix)),
  );
}
