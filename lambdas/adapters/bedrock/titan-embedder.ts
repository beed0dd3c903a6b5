import { setTimeout as sleep } from 'node:timers/promises';
import {
  BedrockRuntimeClient,
  type BedrockRuntimeClientConfig,
  InvokeModelCommand,
} from '@aws-sdk/client-bedrock-runtime';
import * as z from 'zod';
import { mapWithConcurrency } from '../../core/concurrency.js';
import { DomainError } from '../../core/errors.js';
import type { Embedder } from '../../core/ports/index.js';
import { exponentialJitter, retry } from '../../core/retry.js';
import {
  TITAN_EMBED_V2_DEFAULT_DIMENSION,
  TITAN_EMBED_V2_MODEL_ID,
  type TitanDimension,
  titanEmbedderModelId,
} from './titan-model.js';

/**
 * Titan v2 takes up to 8,192 tokens (and 50,000 characters) per request and refuses longer input
 * rather than truncating. 20,000 characters stays under the token limit down to 2.5 characters a
 * token (dense code); a memory's meaning is in its first pages anyway.
 */
export const TITAN_MAX_INPUT_CHARS = 20_000;

/** Bedrock errors worth another try: rate limits and the service's own transient faults. */
const TRANSIENT = new Set([
  'ThrottlingException',
  'ServiceUnavailableException',
  'InternalServerException',
  'ModelNotReadyException',
  'ModelTimeoutException',
]);

const TitanResponse = z.object({ embedding: z.array(z.number()) });

export interface TitanEmbedderOptions {
  /** The Bedrock Runtime client (in tests, pointed at a local fake with `endpoint`). */
  client: BedrockRuntimeClient;
  /** @default 1024 */
  dimension?: TitanDimension;
  /** InvokeModel calls in flight at once (Titan embeds one text per call). @default 8 */
  concurrency?: number;
  /** Tries per text, the first included. @default 4 */
  maxAttempts?: number;
  /** Delay ceiling before the first retry; doubles with each retry, capped at 5 s. @default 200 */
  baseDelayMs?: number;
  /** A number in [0, 1) for the jitter; tests pin it. @default Math.random */
  random?: () => number;
}

/**
 * The Bedrock Runtime client the embedder expects: its own retry off, because retries are
 * decided in one place ({@link TitanEmbedder}, through core/retry.ts) and two loops would multiply.
 *
 * @example
 * const client = createTitanClient({ endpoint: 'http://127.0.0.1:4010', region: 'us-east-1' });
 */
export function createTitanClient(config: BedrockRuntimeClientConfig = {}): BedrockRuntimeClient {
  return new BedrockRuntimeClient({ maxAttempts: 1, ...config });
}

/**
 * Amazon Titan Text Embeddings v2 behind the `Embedder` port: one InvokeModel call per text
 * (the model has no batch form), `concurrency` of them at once, each retried with exponential
 * full jitter on throttling and transient faults. Vectors come back L2-normalised
 * (`normalize: true`) at the configured dimension and are labelled
 * `amazon.titan-embed-text-v2:0-<dimension>`, so an index built by any other model is rebuilt.
 *
 * A final failure is a DomainError, never the SDK's: NETWORK_ERROR when Bedrock stayed busy or
 * unreachable (retry later), PROVIDER_ERROR when it refused (model access, permissions).
 *
 * @example
 * const embedder = new TitanEmbedder({ client: createTitanClient(), dimension: 512 });
 * const [vector] = await embedder.embed(['retry the S3 upload on 503']);
 */
export class TitanEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimension: TitanDimension;
  private readonly options: TitanEmbedderOptions;

  constructor(options: TitanEmbedderOptions) {
    this.options = options;
    this.dimension = options.dimension ?? TITAN_EMBED_V2_DEFAULT_DIMENSION;
    this.modelId = titanEmbedderModelId(this.dimension);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return mapWithConcurrency(texts, this.options.concurrency ?? 8, (text) => this.embedOne(text));
  }

  private async embedOne(text: string): Promise<Float32Array> {
    const inputText = text.trim().slice(0, TITAN_MAX_INPUT_CHARS);
    // Titan refuses empty input; a text with no words has no direction (as the local embedder).
    if (inputText === '') return new Float32Array(this.dimension);
    const body = JSON.stringify({ inputText, dimensions: this.dimension, normalize: true });
    try {
      const answer = await retry(
        () =>
          this.options.client.send(
            new InvokeModelCommand({
              modelId: TITAN_EMBED_V2_MODEL_ID,
              contentType: 'application/json',
              accept: 'application/json',
              body: new TextEncoder().encode(body),
            }),
          ),
        {
          maxAttempts: this.options.maxAttempts ?? 4,
          isRetryable: isTransient,
          backoff: exponentialJitter({ baseDelayMs: this.options.baseDelayMs ?? 200, maxDelayMs: 5_000 }),
          random: this.options.random,
          sleep: (ms) => sleep(ms),
        },
      );
      return this.vectorFrom(answer.body);
    } catch (error) {
      throw failure(error);
    }
  }

  private vectorFrom(body: Uint8Array): Float32Array {
    const parsed = TitanResponse.safeParse(JSON.parse(new TextDecoder().decode(body)));
    if (!parsed.success || parsed.data.embedding.length !== this.dimension) {
      throw new Error(`${TITAN_EMBED_V2_MODEL_ID} answered no ${this.dimension}-dimension embedding.`);
    }
    return Float32Array.from(parsed.data.embedding);
  }
}

/** Throttling, the model's transient faults, any 5xx, and failures that never got an HTTP status. */
function isTransient(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  const status = $metadata?.httpStatusCode;
  return (
    (name !== undefined && TRANSIENT.has(name)) || status === undefined || status === 429 || status >= 500
  );
}

function failure(error: unknown): DomainError {
  const name = (error as Error)?.name ?? 'Error';
  if (isTransient(error)) {
    return new DomainError(
      'NETWORK_ERROR',
      `Amazon Bedrock (${TITAN_EMBED_V2_MODEL_ID}) could not embed the text (${name}) after several tries; retry in a minute.`,
      {},
      { cause: error },
    );
  }
  return new DomainError(
    'PROVIDER_ERROR',
    `Amazon Bedrock refused to embed with ${TITAN_EMBED_V2_MODEL_ID} (${name}): ask the administrator to enable ` +
      "access to that model in this region's Bedrock console, or deploy without -c embeddings=bedrock.",
    {},
    { cause: error },
  );
}
