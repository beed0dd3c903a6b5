import { RemovalPolicy } from 'aws-cdk-lib';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export interface DataKeyProps {
  /** Alias of the key, e.g. `alias/meridian-prod-data`; operators find the key by it. */
  readonly aliasName: string;

  /**
   * What the key is for, shown in the KMS console.
   *
   * @default - a description naming the table and the envelope encryption
   */
  readonly description?: string;
}

/**
 * The customer-managed KMS key that protects Meridian's data: the table's encryption at rest and
 * the envelope encryption of stored secrets (AWS Encryption SDK with a KMS keyring). A customer-
 * managed key, not an AWS-owned one, so the organization controls who may use it, sees each use in
 * CloudTrail, and can revoke access to its data by disabling the key.
 *
 * Retained on stack deletion: without the key, the table, its backups and every encrypted secret
 * are unreadable.
 */
export class DataKey extends Construct {
  readonly key: IKey;

  constructor(scope: Construct, id: string, props: DataKeyProps) {
    super(scope, id);

    this.key = new Key(this, 'Key', {
      alias: props.aliasName,
      description:
        props.description ??
        'Meridian data: encryption at rest of the DynamoDB table and envelope encryption of stored secrets',
      // Yearly rotation keeps old key material for decryption, so nothing has to be re-encrypted.
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
