import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type App, Stack, Validations } from 'aws-cdk-lib';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { ServiceStack } from '../../../lib/stacks/service-stack.js';
import { testApp } from '../synth-helpers.js';

/** The parts of the cloud assembly's validation-report.json these tests read. */
interface ValidationReport {
  pluginReports: {
    pluginName: string;
    conclusion: 'success' | 'failure';
    violations: { ruleName: string; severity: string; violatingConstructs: { constructPath: string }[] }[];
    suppressedViolations?: { ruleName: string; acknowledgedId: string; reason: string }[];
  }[];
}

/**
 * Synthesizes an app with cdk-nag registered the way bin/app.ts registers it. cdk-nag 3 is a
 * policy-validation plugin: its findings land in validation-report.json, and under vitest
 * (NODE_ENV=test) an unacknowledged error makes `synth()` throw with the report as message.
 */
function synthWithNag(addStacks: (app: App) => void): ValidationReport {
  const app = testApp();
  addStacks(app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  const assembly = app.synth();
  return JSON.parse(
    readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8'),
  ) as ValidationReport;
}

function unacknowledged(report: ValidationReport): string[] {
  return report.pluginReports.flatMap((plugin) =>
    plugin.violations.flatMap((v) =>
      v.violatingConstructs.map(
        (c) => `${plugin.pluginName} ${v.severity} ${v.ruleName} at ${c.constructPath}`,
      ),
    ),
  );
}

describe('ServiceStack', () => {
  describe('cdk-nag AwsSolutions checks', () => {
    it('leaves no unacknowledged error or warning', () => {
      const report = synthWithNag((app) => new ServiceStack(app, 'Service'));

      expect(unacknowledged(report)).toEqual([]);
    });

    it('acknowledges exactly the reviewed findings, each with a written reason', () => {
      const report = synthWithNag((app) => new ServiceStack(app, 'Service'));

      const nag = report.pluginReports.find((p) => p.pluginName === 'AwsSolutions');
      const acknowledged = (nag?.suppressedViolations ?? []).map((s) => s.acknowledgedId);
      expect([...new Set(acknowledged)].sort()).toEqual([
        'AwsSolutions::AwsSolutions-APIG3',
        'AwsSolutions::AwsSolutions-APIG4',
        'AwsSolutions::AwsSolutions-COG4',
        'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        'AwsSolutions::AwsSolutions-L1',
      ]);
      for (const s of nag?.suppressedViolations ?? []) expect(s.reason.length).toBeGreaterThan(80);
    });

    it('fails the synth on an unacknowledged error', () => {
      // A role with an AWS managed policy and no acknowledgement: AwsSolutions-IAM4, an error.
      const synth = () =>
        synthWithNag((app) => {
          const stack = new Stack(app, 'Careless');
          new Role(stack, 'Role', {
            assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
            managedPolicies: [
              ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole'),
            ],
          });
        });

      expect(synth).toThrow(/AwsSolutions-IAM4/);
    });
  });
});
