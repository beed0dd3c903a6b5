import { createServer, type Http2ServerRequest, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { embedText } from '../../lambdas/core/memory/search/local-embedder.js';

/**
 * A local stand-in for the Bedrock Runtime InvokeModel API, shaped like Titan Text Embeddings v2
 * (there is no Bedrock emulator, and no real Bedrock here), over cleartext HTTP/2 because the
 * Bedrock Runtime client speaks only HTTP/2: `POST /model/{modelId}/invoke` with
 * `{inputText, dimensions, normalize}` answers `{embedding, inputTextTokenCount}`, errors as
 * Bedrock sends them (status, `x-amzn-ErrorType`, `{message}`). It refuses what Titan refuses
 * (another model, empty input, an unknown dimension, an unsigned request), so an adapter that
 * passes against it has sent the real request shape.
 *
 * The vectors are the local embedder's at the requested dimension: deterministic, unit length and
 * meaningful enough that search over them finds the right memory.
 *
 * @example
 * const bedrock = await startFakeBedrock();
 * const client = createTitanClient({ endpoint: bedrock.endpoint, region: 'us-east-1', credentials });
 * bedrock.failNext(2, 'ThrottlingException', 429);
 */
export interface FakeBedrock {
  /** `http://127.0.0.1:<port>`, for the client's `endpoint`. */
  endpoint: string;
  /** Every request in arrival order. */
  requests: RecordedInvoke[];
  /** The most requests that were being answered at once (reset it with the requests). */
  peak: { inFlight: number };
  /** Answers the next `count` requests with this error instead of an embedding. */
  failNext(count: number, errorType: string, status: number): void;
  close(): Promise<void>;
}

export interface RecordedInvoke {
  modelId: string;
  body: { inputText?: string; dimensions?: number; normalize?: boolean };
  signed: boolean;
}

const TITAN_V2 = 'amazon.titan-embed-text-v2:0';
const DIMENSIONS = [256, 512, 1024];

export async function startFakeBedrock(options: { latencyMs?: number } = {}): Promise<FakeBedrock> {
  const requests: RecordedInvoke[] = [];
  const faults: { errorType: string; status: number }[] = [];
  const peak = { inFlight: 0 };
  let inFlight = 0;

  const server = createServer(async (req, res) => {
    inFlight += 1;
    peak.inFlight = Math.max(peak.inFlight, inFlight);
    res.on('finish', () => {
      inFlight -= 1;
    });
    const send = (status: number, body: unknown, errorType?: string) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
      });
      res.end(JSON.stringify(body));
    };
    const match = /^\/model\/([^/]+)\/invoke$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match)
      return send(404, { message: 'Not found' }, 'UnknownOperationException');
    const modelId = decodeURIComponent(match[1]!);
    const body = JSON.parse((await readBody(req)) || '{}') as RecordedInvoke['body'];
    const signed = /^AWS4-HMAC-SHA256 Credential=.+SignedHeaders=.+Signature=[0-9a-f]{64}$/.test(
      req.headers.authorization ?? '',
    );
    requests.push({ modelId, body, signed });
    // Like the real service, answers take a while: concurrent callers overlap.
    await new Promise((resolve) => setTimeout(resolve, options.latencyMs ?? 2));

    const fault = faults.shift();
    if (fault) return send(fault.status, { message: `injected ${fault.errorType}` }, fault.errorType);
    if (!signed) return send(403, { message: 'Missing Authentication Token' }, 'AccessDeniedException');
    if (modelId !== TITAN_V2)
      return send(404, { message: `Model ${modelId} not found` }, 'ResourceNotFoundException');
    const dimension = body.dimensions ?? 1024;
    if (
      typeof body.inputText !== 'string' ||
      body.inputText.length === 0 ||
      !DIMENSIONS.includes(dimension)
    ) {
      return send(400, { message: 'Malformed input request' }, 'ValidationException');
    }
    if (body.normalize !== true)
      return send(400, { message: 'this fake only serves normalize: true' }, 'ValidationException');
    send(200, {
      embedding: Array.from(embedText(body.inputText, dimension)),
      inputTextTokenCount: body.inputText.split(/\s+/).length,
    });
  });
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    peak,
    failNext: (count, errorType, status) => {
      for (let i = 0; i < count; i++) faults.push({ errorType, status });
    },
    close: () =>
      new Promise((resolve) => {
        // A client keeps its HTTP/2 session open; close() waits for sessions, so end them.
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: Http2ServerRequest): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
