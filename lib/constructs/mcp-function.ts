import { fileURLToPath } from 'node:url';
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, type IFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { requireZone } from '../../lambdas/core/time/zones.js';
import { lambdaBundling, SOURCE_MAPS_NODE_OPTIONS } from './lambda-bundling.js';
import { acknowledgeWildcardResource } from './nag-acknowledgements.js';

/** The handler `McpFunction` deploys; the benchmark bundles the same file. */
export const MCP_HANDLER_ENTRY = fileURLToPath(
  new URL('../../lambdas/handlers/mcp-http.ts', import.meta.url),
);

/** Environment variable carrying the table's name; the AWS runtime reads it. */
export const TABLE_NAME_ENV = 'MERIDIAN_TABLE_NAME';

/** Environment variable carrying the data key's ARN, the KMS keyring's generator key. */
export const DATA_KEY_ARN_ENV = 'MERIDIAN_DATA_KEY_ARN';

export interface McpFunctionProps {
  /** The table the document store reads and writes (`MERIDIAN_TABLE_NAME`). */
  readonly table: ITable;

  /**
   * The KMS key that wraps the data keys of the AWS Encryption SDK (`MERIDIAN_DATA_KEY_ARN`). It
   * may also be the table's key; the grants below hold either way.
   */
  readonly dataKey: IKey;

  /**
   * IANA zone that tools use when a call names none (`MERIDIAN_TIMEZONE`), e.g. `Europe/Paris`.
   * Checked at synth time, so a typo fails `cdk synth` rather than every tool call.
   *
   * @default - not set: tools fall back to UTC and `get_temporal_context` says the zone is unconfigured
   */
  readonly defaultTimezone?: string;
}

/**
 * The Lambda function that serves MCP over HTTP: Node 22 on arm64, one ESM bundle, logging to
 * its own log group, reading and writing the table and encrypting with the data key, through a
 * role that may do exactly that.
 */
export class McpFunction extends Construct {
  readonly function: IFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: McpFunctionProps) {
    super(scope, id);
    if (props.defaultTimezone !== undefined) requireZone(props.defaultTimezone, 'defaultTimezone');

    this.logGroup = new LogGroup(this, 'LogGroup', { retention: RetentionDays.ONE_MONTH });
    // An explicit role instead of the default one with AWSLambdaBasicExecutionRole, which may
    // write to every log group in the account; this one may write only to the group above.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Meridian MCP function: its own logs, the table and the data key',
    });
    this.logGroup.grantWrite(role);
    this.grantData(role, props);

    const fn = new NodejsFunction(this, 'Function', {
      entry: MCP_HANDLER_ENTRY,
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      // Memory buys CPU: the first request builds the tool catalogue, which is CPU-bound.
      memorySize: 1024,
      // API Gateway gives up on a REST integration after 29 s; running longer helps nobody.
      timeout: Duration.seconds(29),
      role,
      logGroup: this.logGroup,
      bundling: lambdaBundling(),
      environment: {
        ...(props.defaultTimezone === undefined ? {} : { MERIDIAN_TIMEZONE: props.defaultTimezone }),
        [TABLE_NAME_ENV]: props.table.tableName,
        [DATA_KEY_ARN_ENV]: props.dataKey.keyArn,
        POWERTOOLS_SERVICE_NAME: 'meridian',
        NODE_OPTIONS: SOURCE_MAPS_NODE_OPTIONS,
      },
      description: 'Meridian remote MCP server (Streamable HTTP, stateless)',
    });
    this.function = fn;

    Validations.of(fn).acknowledge({
      id: 'AwsSolutions::AwsSolutions-L1',
      reason:
        'nodejs22.x is pinned on purpose (TOOLCHAIN.md): the code is kept Node 20 compatible and ' +
        'tested on Node 20, and a newer runtime is a deliberate upgrade with its own test run, ' +
        'not something a lint rule should trigger.',
    });
  }

  /**
   * The table and the key, through grants only, each naming its resource. Two callers use the key:
   * - DynamoDB uses the table's key on behalf of whoever reads or writes, so `grantReadWriteData`
   *   on a table encrypted with a customer-managed key also grants kms:Decrypt, kms:DescribeKey,
   *   kms:Encrypt, kms:ReEncrypt* and kms:GenerateDataKey* on that key. That set is CDK's, and
   *   narrowing it would mean writing the table's statements by hand.
   * - The Encryption SDK's KMS keyring calls KMS itself: GenerateDataKey to encrypt, Decrypt to
   *   decrypt, nothing else. When the data key is also the table's key (as DataStack wires it),
   *   the table's grant already allows both, and granting them again would only repeat them in the
   *   statement; for any other key they are granted here, and only they.
   */
  private grantData(role: Role, props: McpFunctionProps): void {
    props.table.grantReadWriteData(role);
    if (props.table.encryptionKey !== props.dataKey) {
      props.dataKey.grant(role, 'kms:GenerateDataKey', 'kms:Decrypt');
    }

    const nag = Validations.of(role);
    const grantGenerated =
      "is written by the table's grantReadWriteData, because DynamoDB uses the table's " +
      'customer-managed key on behalf of the caller; the statement names that one key.';
    nag.acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
      reason: `kms:GenerateDataKey* ${grantGenerated}`,
    });
    nag.acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Action::kms:ReEncrypt*]',
      reason: `kms:ReEncrypt* ${grantGenerated}`,
    });
    acknowledgeWildcardResource(
      role,
      `${props.table.tableArn}/index/*`,
      "<table ARN>/index/* is written by the table's grantReadWriteData for its indexes: the " +
        'function queries gsi1, the only index (lib/constructs/table-keys.ts), and the wildcard ' +
        'covers the indexes of this one table and no other table.',
    );
  }
}
