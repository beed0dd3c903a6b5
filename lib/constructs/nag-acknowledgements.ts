import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges cdk-nag's IAM5 finding for one wildcard resource, e.g. the `<table ARN>/index/*`
 * that `grantReadWriteData` writes, and no other wildcard.
 *
 * cdk-nag 3 matches an acknowledgement by the exact finding text, and the finding names the
 * resource as its stack renders it. For a resource in another stack, that rendering (an
 * `Fn::GetStackOutput` naming the producer stack and a generated output) exists only once CDK has
 * resolved cross-stack references, after construction. Construct validations run after that and
 * before the policy-validation plugins, so the acknowledgement is written there.
 *
 * @example
 * acknowledgeWildcardResource(role, `${table.tableArn}/index/*`, 'Queries every index of the table.');
 */
export function acknowledgeWildcardResource(scope: IConstruct, resource: string, reason: string): void {
  scope.node.addValidation({
    validate: () => {
      const finding = `Resource::${nagResourceName(Stack.of(scope).resolve(resource))}`;
      Validations.of(scope).acknowledge({ id: `AwsSolutions::AwsSolutions-IAM5[${finding}]`, reason });
      return [];
    },
  });
}

/**
 * The name cdk-nag gives a rendered resource in a finding: `Fn::Join` joined, `Ref` as `<Id>`,
 * `Fn::GetAtt` as `<Id.Attr>`, an `Fn::ImportValue` as the export name, anything else as JSON.
 * Hand-written because cdk-nag does not export its `flattenCfnReference`; the nag tests fail if
 * the two ever disagree.
 */
function nagResourceName(rendered: unknown): string {
  if (typeof rendered === 'string') return rendered.replace(/\$\{/g, '<').replace(/\}/g, '>');
  if (typeof rendered === 'object' && rendered !== null) {
    const node = rendered as Record<string, unknown>;
    const join = node['Fn::Join'] as [string, unknown[]] | undefined;
    if (join) return join[1].map(nagResourceName).join(join[0]);
    const sub = node['Fn::Sub'];
    if (sub !== undefined) return nagResourceName(sub);
    const getAtt = node['Fn::GetAtt'] as [unknown, unknown] | undefined;
    if (getAtt) return `<${nagResourceName(getAtt[0])}.${nagResourceName(getAtt[1])}>`;
    const imported = node['Fn::ImportValue'];
    if (imported !== undefined) return nagResourceName(imported);
    if (node.Ref !== undefined) return `<${nagResourceName(node.Ref)}>`;
  }
  return JSON.stringify(rendered);
}
