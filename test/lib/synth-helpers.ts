import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';

const CDK_JSON = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
  context: Record<string, unknown>;
};

/**
 * An app with the same feature flags as `cdk synth` (from cdk.json), but with asset bundling
 * skipped: an empty `aws:cdk:bundling-stacks` makes NodejsFunction leave esbuild alone, which
 * keeps these tests fast. `npm run synth` is the path that really bundles.
 */
export function testApp(): App {
  return new App({ context: { ...CDK_JSON.context, 'aws:cdk:bundling-stacks': [] } });
}
