/**
 * The text of a Secrets Manager secret (its current version), by ARN. The client loads on the
 * first read: a function that never reads a secret never imports it.
 *
 * @example
 * const clientSecret = await readSecretString(environment.signIn.clientSecretArn);
 */
export async function readSecretString(secretArn: string): Promise<string> {
  const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({});
  try {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
    if (SecretString === undefined)
      throw new Error(`The secret ${secretArn} holds binary data; store the client secret as text.`);
    return SecretString;
  } finally {
    client.destroy();
  }
}
