import {
  Architecture,
  type FunctionProps,
  Function as LambdaFunction,
  Runtime,
} from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { LAMBDA_ENTRY_NAME, lambdaCode } from './lambda-bundling.js';

export interface MeridianFunctionProps
  extends Omit<FunctionProps, 'code' | 'handler' | 'runtime' | 'architecture'> {
  /** The TypeScript file to bundle (see lambda-bundling.ts). */
  readonly entry: string;
  /** The export of `entry` that handles invocations. @default 'handler' */
  readonly exportName?: string;
}

/**
 * A Lambda function running one of Meridian's handlers as all of them run: `entry` bundled by
 * `lambdaCode`, Node 24 on arm64 (the newest Node runtime, so cdk-nag's runtime rule
 * AwsSolutions-L1 has nothing to report). The caller brings what differs: role, log group,
 * memory, timeout, environment.
 *
 * @example
 * const fn = meridianFunction(this, 'Function', { entry: SYNC_HANDLER_ENTRY, role, logGroup, memorySize: 512 });
 */
export function meridianFunction(scope: Construct, id: string, props: MeridianFunctionProps): LambdaFunction {
  const { entry, exportName = 'handler', ...rest } = props;
  return new LambdaFunction(scope, id, {
    ...rest,
    code: lambdaCode(entry),
    handler: `${LAMBDA_ENTRY_NAME}.${exportName}`,
    runtime: Runtime.NODEJS_24_X,
    architecture: Architecture.ARM_64,
  });
}
