import { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';
import type { ServiceStackProps } from '../../../lib/stacks/service-stack.js';
import { meridianStacks, testApp } from '../synth-helpers.js';

export type Resource = { Type: string; Properties: Record<string, unknown> };
export interface Statement {
  Action: string | string[];
  Effect: string;
  Resource: unknown;
}

/**
 * The service template and the logical ids of one scheduled function's resources (the sync job,
 * the memory compression sweep): each id starts with `prefix`, and each must exist exactly once.
 *
 * @example
 * const { functionId, schedulerRoleId } = synthesizeScheduled('SyncSchedule');
 */
export function synthesizeScheduled(prefix: string, props: Partial<ServiceStackProps> = {}) {
  const { service } = meridianStacks(testApp(), props);
  const template = Template.fromStack(service);
  const only = (type: string, idPrefix: string) => {
    const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(idPrefix));
    expect(ids, `${type} ${idPrefix}`).toHaveLength(1);
    return ids[0]!;
  };
  return {
    template,
    functionId: only('AWS::Lambda::Function', `${prefix}Function`),
    logGroupId: only('AWS::Logs::LogGroup', `${prefix}LogGroup`),
    schedulerRoleId: only('AWS::IAM::Role', `${prefix}SchedulerRole`),
    scheduleIds: Object.keys(template.findResources('AWS::Scheduler::Schedule')).filter((id) =>
      id.startsWith(prefix),
    ),
    resource: (id: string) => template.toJSON().Resources[id] as Resource,
  };
}

/** Statements of the IAM policies whose logical id starts with `prefix`. */
export function statementsOf(template: Template, prefix: string): Statement[] {
  return Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([id]) => id.startsWith(prefix))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

export const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
