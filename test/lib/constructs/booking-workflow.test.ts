import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBookingWorkflow } from '../../../lambdas/adapters/workflow/local-booking-workflow.js';
import {
  BOOKING_DEFINITION_PATH,
  BOOKING_TASKS,
  substitutePlaceholders,
} from '../../../lambdas/booking/booking-definition.js';
import { LOCAL_OWNER } from '../../../lambdas/core/access/rights.js';
import { isDomainError } from '../../../lambdas/core/errors.js';
import { fixedClock } from '../../../lambdas/core/ports/index.js';
import { startTestRuntime, type TestRuntime } from '../../support/test-runtime.js';
import { meridianStacks, testApp } from '../synth-helpers.js';

type Resource = { Type: string; Properties: Record<string, unknown> };

/**
 * The service stack as `cdk deploy` would ship it: its template, and the state machine definition
 * that CloudFormation will read from the asset (DefinitionS3Location) and substitute.
 */
function synthesizeService() {
  const app = testApp();
  const { service } = meridianStacks(app, { defaultTimezone: 'Europe/Paris' });
  const assembly = app.synth();
  const json = assembly.getStackArtifact(service.artifactId).template as {
    Resources: Record<string, Resource>;
  };
  const [machineId, machine] = Object.entries(json.Resources).find(
    ([, r]) => r.Type === 'AWS::StepFunctions::StateMachine',
  )!;
  const location = machine.Properties.DefinitionS3Location as { Key: string };
  // The asset manifest says which staged file is uploaded under that key.
  const manifest = JSON.parse(readFileSync(join(assembly.directory, 'Service.assets.json'), 'utf8')) as {
    files: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }>;
  };
  const asset = Object.values(manifest.files).find((file) =>
    Object.values(file.destinations).some((d) => d.objectKey === location.Key),
  );
  if (!asset) throw new Error(`no asset is uploaded as ${location.Key}`);
  const definitionText = readFileSync(join(assembly.directory, asset.source.path), 'utf8');
  return { template: Template.fromJSON(json), resources: json.Resources, machineId, machine, definitionText };
}

/** A stand-in ARN per Lambda logical id, as CloudFormation would resolve `Fn::GetAtt [id, Arn]`. */
const arnOf = (logicalId: string) => `arn:aws:lambda:eu-west-1:123456789012:function:${logicalId}`;

/** CloudFormation's DefinitionSubstitutions, applied with `Fn::GetAtt` resolved by {@link arnOf}. */
function substitutedDefinition(synth: ReturnType<typeof synthesizeService>): string {
  const substitutions = synth.machine.Properties.DefinitionSubstitutions as Record<
    string,
    { 'Fn::GetAtt': [string, string] }
  >;
  const values = Object.fromEntries(
    Object.entries(substitutions).map(([name, value]) => {
      expect(value['Fn::GetAtt'][1]).toBe('Arn');
      return [name, arnOf(value['Fn::GetAtt'][0])];
    }),
  );
  return substitutePlaceholders(synth.definitionText, values);
}

function functionIdByHandler(resources: Record<string, Resource>, handler: string): string {
  const ids = Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.Handler === `index.${handler}`)
    .map(([id]) => id);
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

describe('BookingWorkflow (in the service stack)', () => {
  const synth = synthesizeService();

  describe('state machine', () => {
    it('is an Express state machine logging every event, without execution data, and traced', () => {
      synth.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
        StateMachineType: 'EXPRESS',
        LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: false },
        TracingConfiguration: { Enabled: true },
      });
      const logGroupId = (
        synth.machine.Properties.LoggingConfiguration as {
          Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': string[] } } }[];
        }
      ).Destinations[0]!.CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0]!;
      expect(synth.resources[logGroupId]?.Properties).toMatchObject({
        LogGroupName: '/aws/vendedlogs/states/Service-booking',
        RetentionInDays: 30,
      });
    });

    it('deploys booking.asl.json byte for byte as its definition', () => {
      expect(synth.definitionText).toBe(readFileSync(BOOKING_DEFINITION_PATH, 'utf8'));
      expect(synth.machine.Properties.DefinitionString).toBeUndefined();
    });

    it('substitutes each placeholder with the ARN of the function exporting that task’s handler', () => {
      expect(synth.machine.Properties.DefinitionSubstitutions).toEqual(
        Object.fromEntries(
          BOOKING_TASKS.map((task) => [
            task.placeholder,
            { 'Fn::GetAtt': [functionIdByHandler(synth.resources, task.handler), 'Arn'] },
          ]),
        ),
      );
    });

    it('after substitution, is the file with each Task state’s Resource set to its function', () => {
      const definition = JSON.parse(substitutedDefinition(synth)) as {
        States: Record<string, { Type: string; Resource?: string }>;
      };
      const expected = JSON.parse(readFileSync(BOOKING_DEFINITION_PATH, 'utf8')) as typeof definition;
      for (const task of BOOKING_TASKS) {
        expected.States[task.state]!.Resource = arnOf(functionIdByHandler(synth.resources, task.handler));
      }

      expect(definition).toEqual(expected);
      expect(JSON.stringify(definition)).not.toContain('${');
    });

    it('may invoke exactly the five step functions (unqualified or $LATEST), no wildcard', () => {
      const roleId = (synth.machine.Properties.RoleArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
      const invoke = Object.values(synth.resources)
        .filter(
          (r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(`"${roleId}"`),
        )
        .flatMap(
          (r) =>
            (r.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] })
              .Statement,
        )
        .filter((s) => JSON.stringify(s.Action).includes('lambda:'));

      expect(invoke.map((s) => s.Action)).toEqual(['lambda:InvokeFunction']);
      const byId = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
      const arns = BOOKING_TASKS.map((task) => ({
        'Fn::GetAtt': [functionIdByHandler(synth.resources, task.handler), 'Arn'],
      }));
      expect([invoke[0]!.Resource].flat().sort(byId)).toEqual(
        [...arns, ...arns.map((arn) => ({ 'Fn::Join': ['', [arn, ':$LATEST']] }))].sort(byId),
      );
    });
  });

  describe('step functions', () => {
    it('run each task’s handler on nodejs24.x, arm64, with the table, the key, the zone and the lock TTL', () => {
      for (const task of BOOKING_TASKS) {
        const fn = synth.resources[functionIdByHandler(synth.resources, task.handler)]!;
        expect(fn.Properties).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          Timeout: 20,
          Environment: {
            Variables: {
              MERIDIAN_TIMEZONE: 'Europe/Paris',
              LOCK_TTL_SECS: '30',
              POWERTOOLS_SERVICE_NAME: 'meridian-booking',
            },
          },
        });
        const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
        expect(variables.MERIDIAN_TABLE_NAME).toBeDefined();
        expect(variables.MERIDIAN_DATA_KEY_ARN).toBeDefined();
      }
    });

    it('refuses a lock TTL outside 5–300 s at synth time', () => {
      expect(() => meridianStacks(testApp(), { lockTtlSeconds: 2 })).toThrow(
        /lockTtlSeconds must be a whole number from 5 to 300/,
      );
    });
  });

  describe('MCP function', () => {
    it('is told the state machine’s ARN and may start synchronous executions of it, and nothing else of Step Functions', () => {
      const fn = Object.values(synth.resources).find(
        (r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Handler === 'index.handler',
      )!;
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables.MERIDIAN_BOOKING_STATE_MACHINE_ARN).toEqual({ Ref: synth.machineId });

      const roleId = (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
      const states = Object.values(synth.resources)
        .filter(
          (r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(`"${roleId}"`),
        )
        .flatMap(
          (r) =>
            (r.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] })
              .Statement,
        )
        .filter((s) => JSON.stringify(s.Action).includes('states:'));
      expect(states).toEqual([
        { Action: 'states:StartSyncExecution', Effect: 'Allow', Resource: { Ref: synth.machineId } },
      ]);
    });
  });

  describe('the synthesized definition, run locally', () => {
    let runtime: TestRuntime;
    let workflow: LocalBookingWorkflow;
    let calendarId: string;

    beforeAll(async () => {
      const definition = substitutedDefinition(synth);
      runtime = await startTestRuntime({
        clock: fixedClock('2026-06-01T00:00:00Z'),
        booking: (steps) => {
          workflow = new LocalBookingWorkflow({ steps, definition, retryDelayMs: 0 });
          return workflow;
        },
      });
      calendarId = (await runtime.calendars.createCalendar(LOCAL_OWNER, { name: 'Synth', time_zone: 'UTC' }))
        .id;
    });

    afterAll(async () => {
      await runtime?.close();
    });

    it('books a slot end to end and refuses an overlapping one', async () => {
      const booked = await runtime.booking.book(LOCAL_OWNER, {
        calendar_id: calendarId,
        start: '2026-06-02T09:00:00Z',
        end: '2026-06-02T10:00:00Z',
        summary: 'Deployed definition',
      });
      const clash = await runtime.booking
        .book(LOCAL_OWNER, {
          calendar_id: calendarId,
          start: '2026-06-02T09:30:00Z',
          end: '2026-06-02T10:30:00Z',
          summary: 'Clash',
        })
        .catch((error: unknown) => error);

      expect(booked).toMatchObject({
        summary: 'Deployed definition',
        start: '2026-06-02T09:00:00+00:00',
        idempotent_replay: false,
      });
      expect(isDomainError(clash, 'SLOT_TAKEN')).toBe(true);
      const record = await runtime.registry.requireCalendar(calendarId);
      const { provider, ref } = await runtime.calendars.providerFor(record);
      const events = await provider.listEvents(ref, {
        start: '2026-06-02T00:00:00Z',
        end: '2026-06-03T00:00:00Z',
        single_events: true,
        max_results: 10,
      });
      expect(events.events.map((e) => e.id)).toEqual([booked.event_id]);
    });
  });
});
