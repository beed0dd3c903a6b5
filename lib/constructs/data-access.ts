import { Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { acknowledgeWildcardResource } from './nag-acknowledgements.js';

/**
 * Lets `role` read and write the table's items and use the data key, through grants only, each
 * naming its resource — for every function that runs Meridian's object graph (the MCP function,
 * the booking steps). Two callers use the key:
 * - DynamoDB uses the table's key on behalf of whoever reads or writes, so `grantReadWriteData`
 *   on a table encrypted with a customer-managed key also grants kms:Decrypt, kms:DescribeKey,
 *   kms:Encrypt, kms:ReEncrypt* and kms:GenerateDataKey* on that key. That set is CDK's, and
 *   narrowing it would mean writing the table's statements by hand.
 * - The Encryption SDK's KMS keyring calls KMS itself: GenerateDataKey to encrypt, Decrypt to
 *   decrypt, nothing else. When the data key is also the table's key (as DataStack wires it),
 *   the table's grant already allows both, and granting them again would only repeat them in the
 *   statement; for any other key they are granted here, and only they.
 * The three wildcards this leaves are acknowledged for cdk-nag on `role`, each with its reason.
 *
 * @example
 * grantTableAndDataKey(role, props.table, props.dataKey);
 */
export function grantTableAndDataKey(
  role: Role,
  table: ITable,
  dataKey: IKey,
  /** What the Encryption SDK does with the data key here; a function that only reads secrets passes ['kms:Decrypt']. */
  keyActions: readonly string[] = ['kms:GenerateDataKey', 'kms:Decrypt'],
): void {
  table.grantReadWriteData(role);
  if (table.encryptionKey !== dataKey) {
    dataKey.grant(role, ...keyActions);
  }

  acknowledgeTableGrantWildcards(role, table, {
    keyActionsWrittenBy:
      "is written by the table's grantReadWriteData, because DynamoDB uses the table's " +
      'customer-managed key on behalf of the caller; the statement names that one key.',
    indexWildcard:
      "<table ARN>/index/* is written by the table's grantReadWriteData for its indexes: the " +
      'function queries gsi1, the only index (lib/constructs/table-keys.ts), and the wildcard ' +
      'covers the indexes of this one table and no other table.',
  });
}

/**
 * Acknowledges for cdk-nag, on `role`, the three wildcards a grant on the table leaves: the
 * kms:GenerateDataKey* and kms:ReEncrypt* actions on the table's key, and `<table ARN>/index/*`.
 * Each caller says why, for its own grant.
 */
export function acknowledgeTableGrantWildcards(
  role: Role,
  table: ITable,
  reasons: {
    /** Completes "kms:GenerateDataKey* …" and "kms:ReEncrypt* …". */
    keyActionsWrittenBy: string;
    indexWildcard: string;
  },
): void {
  const nag = Validations.of(role);
  for (const action of ['kms:GenerateDataKey*', 'kms:ReEncrypt*']) {
    nag.acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Action::${action}]`,
      reason: `${action} ${reasons.keyActionsWrittenBy}`,
    });
  }
  acknowledgeWildcardResource(role, `${table.tableArn}/index/*`, reasons.indexWildcard);
}
