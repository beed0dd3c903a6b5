import { Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Grant, type Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { acknowledgeWildcardResource } from './nag-acknowledgements.js';

/**
 * The item calls the document store makes (lambdas/adapters/dynamodb/dynamodb-document-store.ts),
 * as IAM actions: what every function whose bundle holds it can send. The deploy rehearsal
 * (test/rehearsal) fails when the adapter starts sending another, or a role grants more.
 */
export const DOCUMENT_STORE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchGetItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:Query',
] as const;

/**
 * What DynamoDB needs of the table's customer-managed key to read and write items on the caller's
 * behalf: the set CDK's `grantReadWriteData` writes on that key.
 */
const TABLE_KEY_ACTIONS = [
  'kms:Decrypt',
  'kms:DescribeKey',
  'kms:Encrypt',
  'kms:ReEncrypt*',
  'kms:GenerateDataKey*',
];

/**
 * Lets `role` make the document store's calls on the table — the item actions on the table itself,
 * Query also on its indexes — and use the table's key as DynamoDB does for them. Narrower than
 * `grantReadWriteData`, which also grants Scan, UpdateItem, ConditionCheckItem, DescribeTable and
 * the stream reads, on the indexes too: no bundle sends those (test/rehearsal checks it).
 *
 * @example
 * grantDocumentStore(role, props.table);
 */
export function grantDocumentStore(role: Role, table: ITable): void {
  const itemActions = DOCUMENT_STORE_ACTIONS.filter((action) => action !== 'dynamodb:Query');
  Grant.addToPrincipal({ grantee: role, actions: itemActions, resourceArns: [table.tableArn] });
  Grant.addToPrincipal({
    grantee: role,
    actions: ['dynamodb:Query'],
    resourceArns: [table.tableArn, `${table.tableArn}/index/*`],
  });
  table.encryptionKey?.grant(role, ...TABLE_KEY_ACTIONS);
}

/**
 * Lets `role` read and write the table's items and use the data key, through grants only, each
 * naming its resource — for every function that runs Meridian's object graph (the MCP function,
 * the booking steps, the sync job). Two callers use the key:
 * - DynamoDB uses the table's key on behalf of whoever reads or writes, so
 *   {@link grantDocumentStore} grants kms:Decrypt, kms:DescribeKey, kms:Encrypt, kms:ReEncrypt*
 *   and kms:GenerateDataKey* on that key (CDK's set for a table's data grants).
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
  grantDocumentStore(role, table);
  if (table.encryptionKey !== dataKey) {
    dataKey.grant(role, ...keyActions);
  }

  acknowledgeTableGrantWildcards(role, table, {
    keyActionsWrittenBy:
      "is granted with the table's item actions, because DynamoDB uses the table's " +
      'customer-managed key on behalf of the caller; the statement names that one key.',
    indexWildcard:
      '<table ARN>/index/* is granted for Query only: the function queries gsi1, the only index ' +
      '(lib/constructs/table-keys.ts), and the wildcard covers the indexes of this one table and no other table.',
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
