import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/**
 * AWS KMS as far as the Encryption SDK's KMS keyring calls it — GenerateDataKey, Encrypt and
 * Decrypt over the JSON 1.1 protocol (target `TrentService.<Operation>`), as the KMS API
 * Reference describes them — for the rehearsal's keys only. No local KMS exists (TOOLCHAIN.md):
 * this one holds a random AES-256 key per key ARN of the template and seals each ciphertext
 * blob with AES-GCM, binding the key ARN and the encryption context as KMS does, so that a blob
 * decrypts only under its key and with the same context.
 */
export interface FakeKms {
  endpoint: string;
  /** Operations received, as `Operation keyArn`. */
  calls: string[];
  close(): Promise<void>;
}

interface KmsError {
  status: number;
  type: string;
  message: string;
}

/** The key ARN a ciphertext blob of this fake names (its first bytes), for recording Decrypt calls. */
export function keyOfBlob(blob: string): string | undefined {
  const bytes = Buffer.from(blob, 'base64');
  return bytes.length > 1 ? bytes.subarray(1, 1 + bytes[0]!).toString() : undefined;
}

export async function startFakeKms(keyArns: string[]): Promise<FakeKms> {
  const keys = new Map(keyArns.map((arn) => [arn, randomBytes(32)]));
  const calls: string[] = [];

  const keyArnOf = (keyId: unknown): string => {
    const id = String(keyId ?? '');
    const arn = keys.has(id) ? id : [...keys.keys()].find((candidate) => candidate.endsWith(`:key/${id}`));
    if (!arn)
      throw {
        status: 400,
        type: 'NotFoundException',
        message: `Key '${id}' does not exist`,
      } satisfies KmsError;
    return arn;
  };
  const contextBytes = (context: unknown) =>
    Buffer.from(
      JSON.stringify(
        Object.entries((context ?? {}) as Record<string, string>).sort(([a], [b]) => a.localeCompare(b)),
      ),
    );

  const seal = (arn: string, plaintext: Buffer, context: unknown): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', keys.get(arn)!, iv);
    cipher.setAAD(Buffer.concat([Buffer.from(arn), contextBytes(context)]));
    const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const arnBytes = Buffer.from(arn);
    return Buffer.concat([
      Buffer.from([arnBytes.length]),
      arnBytes,
      iv,
      cipher.getAuthTag(),
      sealed,
    ]).toString('base64');
  };
  const open = (blob: string, context: unknown): { arn: string; plaintext: Buffer } => {
    const bytes = Buffer.from(blob, 'base64');
    const arn = bytes.subarray(1, 1 + bytes[0]!).toString();
    const rest = bytes.subarray(1 + bytes[0]!);
    const key = keys.get(arn);
    const invalid: KmsError = {
      status: 400,
      type: 'InvalidCiphertextException',
      message: 'The ciphertext is invalid.',
    };
    if (!key || rest.length < 28) throw invalid;
    const decipher = createDecipheriv('aes-256-gcm', key, rest.subarray(0, 12));
    decipher.setAAD(Buffer.concat([Buffer.from(arn), contextBytes(context)]));
    decipher.setAuthTag(rest.subarray(12, 28));
    try {
      return { arn, plaintext: Buffer.concat([decipher.update(rest.subarray(28)), decipher.final()]) };
    } catch {
      throw invalid;
    }
  };

  const operations: Record<string, (body: Record<string, unknown>) => Record<string, unknown>> = {
    GenerateDataKey: (body) => {
      const arn = keyArnOf(body.KeyId);
      const length =
        body.NumberOfBytes !== undefined ? Number(body.NumberOfBytes) : body.KeySpec === 'AES_128' ? 16 : 32;
      const plaintext = randomBytes(length);
      calls.push(`GenerateDataKey ${arn}`);
      return {
        KeyId: arn,
        Plaintext: plaintext.toString('base64'),
        CiphertextBlob: seal(arn, plaintext, body.EncryptionContext),
      };
    },
    Encrypt: (body) => {
      const arn = keyArnOf(body.KeyId);
      calls.push(`Encrypt ${arn}`);
      return {
        KeyId: arn,
        CiphertextBlob: seal(arn, Buffer.from(String(body.Plaintext), 'base64'), body.EncryptionContext),
        EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
      };
    },
    Decrypt: (body) => {
      const { arn, plaintext } = open(String(body.CiphertextBlob), body.EncryptionContext);
      if (body.KeyId !== undefined && keyArnOf(body.KeyId) !== arn)
        throw {
          status: 400,
          type: 'IncorrectKeyException',
          message: 'The key ID in the request does not identify the key that encrypted the ciphertext.',
        } satisfies KmsError;
      calls.push(`Decrypt ${arn}`);
      return {
        KeyId: arn,
        Plaintext: plaintext.toString('base64'),
        EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
      };
    },
  };

  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const operation = String(request.headers['x-amz-target'] ?? '').replace(/^TrentService\./, '');
    let status = 200;
    let answer: unknown;
    try {
      const run = operations[operation];
      if (!run)
        throw {
          status: 400,
          type: 'UnknownOperationException',
          message: `${operation} is not rehearsed`,
        } satisfies KmsError;
      answer = run(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
    } catch (error) {
      const failure = error as Partial<KmsError>;
      status = failure.status ?? 500;
      answer = { __type: failure.type ?? 'KMSInternalException', message: failure.message ?? String(error) };
      calls.push(`${operation} refused: ${failure.type ?? 'KMSInternalException'}`);
    }
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
    response.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
